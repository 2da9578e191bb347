import type { SvcLoginResult, SvcTokenResponse } from '@svc/contract';
import { describe, expect, it } from 'vitest';
import { SvcError, toSvcLoginResponse } from '../index.js';
import { toLoginResult } from './direct-login-result.js';

const tokens: SvcTokenResponse = {
  accessToken: 'at',
  refreshToken: 'rt',
  sessionId: 'ses_1',
  clientId: 'web',
  organizationId: 'org_1',
  accessTokenExpiresAt: '2026-12-02T10:15:00.000Z',
  refreshTokenExpiresAt: '2027-01-01T10:00:00.000Z',
};
const organizations = [{ id: 'org_1', slug: 'acme', name: 'Acme', role: 'admin' }];
const mfa = (enrollmentRequired: boolean): SvcLoginResult =>
  toLoginResult({ kind: 'mfa', mfaToken: 'mfa_1', enrollmentRequired, methods: ['totp', 'recovery_code'] });
const complete: SvcLoginResult = {
  ...mfa(false),
  requiresMfa: false,
  mfaToken: null,
  mfaMethods: null,
  tokens,
};

describe('toSvcLoginResponse, the recommended mapping of a login result for a host', () => {
  it('names each state of the login result with what the host needs to go on', () => {
    const selection = toLoginResult({
      kind: 'organization_selection',
      pendingAuthToken: 'pat_1',
      organizations,
    });
    expect(toSvcLoginResponse(selection)).toEqual({
      status: 'organization_selection_required',
      pendingAuthToken: 'pat_1',
      organizations,
    });
    expect(toSvcLoginResponse(mfa(true))).toEqual({
      status: 'mfa_enrollment_required',
      mfaToken: 'mfa_1',
      methods: ['totp', 'recovery_code'],
    });
    expect(toSvcLoginResponse(mfa(false))).toMatchObject({ status: 'mfa_required', mfaToken: 'mfa_1' });
    expect(toSvcLoginResponse(complete)).toEqual({ status: 'complete', tokens });
  });

  it('throws a server error for a result in no state or in several', () => {
    const none: SvcLoginResult = { ...complete, tokens: null };
    const both: SvcLoginResult = { ...mfa(false), tokens };
    const selectionWithoutToken: SvcLoginResult = { ...none, requiresOrganizationSelection: true };
    for (const result of [none, both, selectionWithoutToken]) {
      let thrown: unknown;
      try {
        toSvcLoginResponse(result);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(SvcError);
      expect(thrown).toMatchObject({ status: 500, expose: false, code: 'invalid_login_result' });
    }
  });
});

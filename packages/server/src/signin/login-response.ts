import type { SvcLoginResult, SvcOrganizationOption, SvcTokenResponse } from '@svc/contract';
import { SvcError } from '../kernel/errors.js';

/**
 * What a host answers its own sign-in UI for an SvcLoginResult: the recommended mapping, one `status` per
 * state of the login state machine (docs/reference/sign-in.md "The login result").
 */
export type SvcLoginResponse =
  | {
      readonly status: 'organization_selection_required';
      readonly pendingAuthToken: string;
      readonly organizations: readonly SvcOrganizationOption[];
    }
  | {
      readonly status: 'mfa_enrollment_required' | 'mfa_required';
      readonly mfaToken: string;
      readonly methods: readonly string[];
    }
  | { readonly status: 'complete'; readonly tokens: SvcTokenResponse };

/**
 * Maps a login result onto the response a host sends: `organization_selection_required` with the pending
 * token and the choices, `mfa_enrollment_required` or `mfa_required` with the MFA token and the factors,
 * `complete` with the tokens. A result in none of these states, or in several, is a server error: it
 * throws an SvcError with status 500 (not exposed), which a host's error handler answers as such.
 */
export function toSvcLoginResponse(result: SvcLoginResult): SvcLoginResponse {
  const responses: SvcLoginResponse[] = [];
  if (result.requiresOrganizationSelection && result.pendingAuthToken !== null) {
    responses.push({
      status: 'organization_selection_required',
      pendingAuthToken: result.pendingAuthToken,
      organizations: result.organizations,
    });
  }
  if (result.requiresMfa && result.mfaToken !== null) {
    responses.push({
      status: result.requiresMfaEnrollment ? 'mfa_enrollment_required' : 'mfa_required',
      mfaToken: result.mfaToken,
      methods: result.mfaMethods ?? [],
    });
  }
  if (result.tokens !== null) responses.push({ status: 'complete', tokens: result.tokens });
  const [response] = responses;
  if (response === undefined || responses.length > 1) {
    throw new SvcError('invalid_login_result', 'The login result is in no single known state.', {
      status: 500,
      expose: false,
    });
  }
  return response;
}

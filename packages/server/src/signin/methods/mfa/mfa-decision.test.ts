import type { SvcMfaSettings, SvcOrganizationMfaPolicy } from '@svc/contract';
import { describe, expect, it } from 'vitest';
import { decideMfa, rolesForSignIn, type MfaDecision, type MfaDecisionInput } from './mfa-decision.js';
import { DEFAULT_MFA_SETTINGS, DEFAULT_ORGANIZATION_MFA_POLICY } from './mfa-settings.js';

const NONE: MfaDecision = { kind: 'none' };
const ENROLL: MfaDecision = { kind: 'enrollment', methods: ['totp'] };
const TOTP_ONLY: MfaDecision = { kind: 'challenge', methods: ['totp'] };
const WITH_RECOVERY: MfaDecision = { kind: 'challenge', methods: ['totp', 'recovery_code'] };

const settings = (fields: Partial<SvcMfaSettings> = {}): SvcMfaSettings => ({
  ...DEFAULT_MFA_SETTINGS,
  ...fields,
});
const policy = (fields: Partial<SvcOrganizationMfaPolicy> = {}): SvcOrganizationMfaPolicy => ({
  ...DEFAULT_ORGANIZATION_MFA_POLICY,
  isEnabled: true,
  ...fields,
});

/** A member without a factor, under the default settings and no organization policy. */
const input = (fields: Partial<MfaDecisionInput> = {}): MfaDecisionInput => ({
  settings: settings(),
  organizationPolicy: null,
  roles: ['member'],
  hasConfirmedAuthenticator: false,
  unusedRecoveryCodes: 0,
  ...fields,
});

const enrolled = { hasConfirmedAuthenticator: true, unusedRecoveryCodes: 10 } as const;

describe('decideMfa', () => {
  const cases: [string, Partial<MfaDecisionInput>, MfaDecision][] = [
    ['defaults: nobody is required', {}, NONE],
    [
      'global MFA off: nothing, even with a factor',
      { settings: settings({ enabled: false }), ...enrolled },
      NONE,
    ],
    [
      'global MFA off: nothing, even when required',
      { settings: settings({ enabled: false, requireForAllUsers: true }) },
      NONE,
    ],
    [
      'TOTP off: nothing',
      { settings: settings({ totpEnabled: false, requireForAllUsers: true }), ...enrolled },
      NONE,
    ],
    ['required for all users', { settings: settings({ requireForAllUsers: true }) }, ENROLL],
    [
      'owners and admins: an admin',
      { settings: settings({ requireForOwnersAndAdmins: true }), roles: ['admin'] },
      ENROLL,
    ],
    [
      'owners and admins: an owner',
      { settings: settings({ requireForOwnersAndAdmins: true }), roles: ['owner'] },
      ENROLL,
    ],
    ['owners and admins: a member is not', { settings: settings({ requireForOwnersAndAdmins: true }) }, NONE],
    [
      'owners and admins: no membership is not',
      { settings: settings({ requireForOwnersAndAdmins: true }), roles: [] },
      NONE,
    ],
    [
      'a required role the user has',
      { settings: settings({ requiredRoles: ['billing'] }), roles: ['member', 'billing'] },
      ENROLL,
    ],
    ['a required role the user lacks', { settings: settings({ requiredRoles: ['billing'] }) }, NONE],
    [
      'organization policy: all users',
      { organizationPolicy: policy({ requireMfaForAllUsers: true }) },
      ENROLL,
    ],
    [
      'organization policy disabled: ignored',
      { organizationPolicy: policy({ isEnabled: false, requireMfaForAllUsers: true }) },
      NONE,
    ],
    [
      'organization policy: owners and admins, an admin',
      { organizationPolicy: policy({ requireMfaForOwnersAndAdmins: true }), roles: ['admin'] },
      ENROLL,
    ],
    [
      'organization policy: owners and admins, a member',
      { organizationPolicy: policy({ requireMfaForOwnersAndAdmins: true }) },
      NONE,
    ],
    [
      'organization policy: a required role',
      { organizationPolicy: policy({ requiredRoles: ['member'] }) },
      ENROLL,
    ],
    [
      'organization policy cannot switch off a global requirement',
      { settings: settings({ requireForAllUsers: true }), organizationPolicy: policy() },
      ENROLL,
    ],
    ['a user with a factor is always challenged', { ...enrolled }, WITH_RECOVERY],
    [
      'a user with a factor under a requirement is challenged, not enrolled',
      { settings: settings({ requireForAllUsers: true }), ...enrolled },
      WITH_RECOVERY,
    ],
    [
      'recovery codes only while the user has one left',
      { hasConfirmedAuthenticator: true, unusedRecoveryCodes: 0 },
      TOTP_ONLY,
    ],
    [
      'recovery codes off globally',
      { settings: settings({ recoveryCodesEnabled: false }), ...enrolled },
      TOTP_ONLY,
    ],
    [
      'recovery codes not a global factor',
      { settings: settings({ availableFactors: ['totp'] }), ...enrolled },
      TOTP_ONLY,
    ],
    [
      'recovery codes off in the organization',
      { organizationPolicy: policy({ recoveryCodesEnabled: false }), ...enrolled },
      TOTP_ONLY,
    ],
    [
      'recovery codes not an organization factor',
      { organizationPolicy: policy({ availableFactors: ['totp'] }), ...enrolled },
      TOTP_ONLY,
    ],
    ['both allow recovery codes', { organizationPolicy: policy(), ...enrolled }, WITH_RECOVERY],
    [
      'a disabled organization policy does not restrict factors',
      { organizationPolicy: policy({ isEnabled: false, recoveryCodesEnabled: false }), ...enrolled },
      WITH_RECOVERY,
    ],
  ];

  it.each(cases)('%s', (_name, fields, expected) => {
    expect(decideMfa(input(fields))).toEqual(expected);
  });
});

describe('rolesForSignIn', () => {
  const memberships = [
    { id: 'org_a', slug: 'a', name: 'A', role: 'admin' },
    { id: 'org_b', slug: 'b', name: 'B', role: 'member' },
    { id: 'org_c', slug: 'c', name: 'C', role: 'member' },
  ];

  it('counts only the role in the sign-in organization', () => {
    expect(rolesForSignIn(memberships, 'org_b')).toEqual(['member']);
    expect(rolesForSignIn(memberships, 'org_a')).toEqual(['admin']);
    expect(rolesForSignIn(memberships, 'org_x')).toEqual([]);
  });

  it('counts every role once for a user-scoped sign-in (an admin anywhere is an admin)', () => {
    expect(rolesForSignIn(memberships, null)).toEqual(['admin', 'member']);
  });
});

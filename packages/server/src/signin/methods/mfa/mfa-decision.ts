import type { SvcMfaSettings, SvcOrganizationMfaPolicy, SvcOrganizationOption } from '@svc/contract';

/** Roles that `requireForOwnersAndAdmins` covers. */
const OWNER_AND_ADMIN_ROLES: ReadonlySet<string> = new Set(['owner', 'admin']);

/** What one sign-in must do about a second factor. */
export type MfaDecision =
  | { readonly kind: 'none' }
  /** The user has a confirmed authenticator: verify a code (TOTP or, when offered, a recovery code). */
  | { readonly kind: 'challenge'; readonly methods: readonly string[] }
  /** MFA is required and the user has no confirmed factor: enroll an authenticator first. */
  | { readonly kind: 'enrollment'; readonly methods: readonly string[] };

export interface MfaDecisionInput {
  readonly settings: SvcMfaSettings;
  /** The policy of the sign-in's organization; null for a user-scoped sign-in. */
  readonly organizationPolicy: SvcOrganizationMfaPolicy | null;
  /**
   * The user's roles that count: the role in the sign-in's organization, or every role of the user's
   * active memberships for a user-scoped sign-in (an admin anywhere is an admin).
   */
  readonly roles: readonly string[];
  readonly hasConfirmedAuthenticator: boolean;
  readonly unusedRecoveryCodes: number;
}

/**
 * The MFA decision of a sign-in (docs/reference/sign-in.md "Multi-factor authentication" login states mfa and mfa_enrollment), pure:
 *
 * - global MFA off (or TOTP off): none;
 * - required when the global settings or the organization's enabled policy require it for everyone,
 *   for owners and admins, or for one of the user's roles;
 * - a user with a confirmed authenticator is always challenged (they chose a second factor);
 * - required without a confirmed authenticator: enrollment;
 * - recovery codes are offered when both the global settings and the organization's policy allow them,
 *   both list the factor, and the user has an unused one.
 */
export function decideMfa(input: MfaDecisionInput): MfaDecision {
  const { settings, organizationPolicy: org } = input;
  if (!settings.enabled || !settings.totpEnabled) return { kind: 'none' };
  const policy = org?.isEnabled === true ? org : null;
  const requires = (all: boolean, ownersAndAdmins: boolean, roles: readonly string[]) =>
    all ||
    (ownersAndAdmins && input.roles.some((role) => OWNER_AND_ADMIN_ROLES.has(role))) ||
    input.roles.some((role) => roles.includes(role));
  const required =
    requires(settings.requireForAllUsers, settings.requireForOwnersAndAdmins, settings.requiredRoles) ||
    (policy !== null &&
      requires(policy.requireMfaForAllUsers, policy.requireMfaForOwnersAndAdmins, policy.requiredRoles));
  if (input.hasConfirmedAuthenticator) {
    const recoveryOffered =
      settings.recoveryCodesEnabled &&
      settings.availableFactors.includes('recovery_code') &&
      (policy === null ||
        (policy.recoveryCodesEnabled && policy.availableFactors.includes('recovery_code'))) &&
      input.unusedRecoveryCodes > 0;
    return { kind: 'challenge', methods: recoveryOffered ? ['totp', 'recovery_code'] : ['totp'] };
  }
  return required ? { kind: 'enrollment', methods: ['totp'] } : { kind: 'none' };
}

/** The roles that count for a sign-in (see MfaDecisionInput.roles). */
export function rolesForSignIn(
  memberships: readonly SvcOrganizationOption[],
  organizationId: string | null,
): string[] {
  const relevant =
    organizationId === null ? memberships : memberships.filter((option) => option.id === organizationId);
  return [...new Set(relevant.map((option) => option.role))];
}

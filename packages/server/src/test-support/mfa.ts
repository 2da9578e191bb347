import type { SvcMfaSettings, SvcOrganizationMfaPolicy, SvcTotpEnrollmentVerifyResult } from '@svc/contract';
import type { SvcAuthService } from '../app/facades/svc-auth-service.js';
import { DEFAULT_MFA_SETTINGS, DEFAULT_ORGANIZATION_MFA_POLICY } from '../signin/methods/mfa/mfa-settings.js';
import { authenticatorCode } from './authenticator-app.js';
import type { FakeClock } from './fake-clock.js';

/** The global MFA settings: the defaults with `fields` changed. */
export function mfaSettings(fields: Partial<SvcMfaSettings> = {}): SvcMfaSettings {
  return { ...DEFAULT_MFA_SETTINGS, ...fields };
}

/** An enabled organization MFA policy: the defaults with `fields` changed. */
export function organizationMfaPolicy(
  fields: Partial<SvcOrganizationMfaPolicy> = {},
): SvcOrganizationMfaPolicy {
  return { ...DEFAULT_ORGANIZATION_MFA_POLICY, isEnabled: true, ...fields };
}

/** An authenticator a test user set up: its secret (what the app holds) and the recovery codes shown. */
export interface EnrolledAuthenticator {
  readonly secret: string;
  readonly result: SvcTotpEnrollmentVerifyResult;
  /** The app's code now. */
  code(): string;
}

/**
 * Account self-enrollment of `userId` as a signed-in user does it: start, then confirm with the app's
 * code at the clock's time.
 */
export async function selfEnroll(
  auth: SvcAuthService,
  clock: FakeClock,
  userId: string,
): Promise<EnrolledAuthenticator> {
  const started = await auth.startTotpEnrollmentAsync(userId, {});
  const result = await auth.verifyTotpEnrollmentAsync({
    enrollmentToken: started.enrollmentToken,
    code: authenticatorCode(started.secret, clock.now()),
  });
  return { secret: started.secret, result, code: () => authenticatorCode(started.secret, clock.now()) };
}

/**
 * The forced enrollment of an mfa_enrollment login state (direct flow): start with the MFA token, then
 * confirm with the app's code and the same MFA token, which completes the sign-in with tokens.
 */
export async function enrollForChallenge(
  auth: SvcAuthService,
  clock: FakeClock,
  mfaToken: string,
): Promise<EnrolledAuthenticator> {
  const started = await auth.startTotpEnrollmentForChallengeAsync({ mfaToken });
  const result = await auth.verifyTotpEnrollmentAsync({
    enrollmentToken: started.enrollmentToken,
    code: authenticatorCode(started.secret, clock.now()),
    mfaToken,
  });
  return { secret: started.secret, result, code: () => authenticatorCode(started.secret, clock.now()) };
}

/** The error a promise rejects with (undefined when it resolves), for asserting on its fields. */
export function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

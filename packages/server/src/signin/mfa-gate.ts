import type { SvcOrganizationOption } from '@svc/contract';
import type { SignedInIdentity } from './signed-in-identity.js';

/** A second factor the sign-in must pass before it completes. */
export interface MfaChallengeIssued {
  /** Single-use token for the challenge (256 bits; only its hash is stored). */
  readonly mfaToken: string;
  readonly expiresAt: number;
  /** The persisted decision: no confirmed factor, so an authenticator must be enrolled first. */
  readonly enrollmentRequired: boolean;
  /** The factors offered, for example ['totp', 'recovery_code']. */
  readonly methods: string[];
}

/**
 * What the sign-in engine asks once the organization of a sign-in is known (implemented by
 * signin/methods/mfa/mfa-service.ts): null when no second factor is needed, else the challenge to answer.
 * `organizations` are the user's active memberships when this sign-in has already read them (the
 * organization policy did), so that the gate need not read them again.
 */
export interface MfaGate {
  challengeFor(
    identity: SignedInIdentity,
    organizations?: readonly SvcOrganizationOption[],
  ): Promise<MfaChallengeIssued | null>;
}

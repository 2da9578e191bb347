import type { Generated } from 'kysely';

/** Authorization requests, one-time codes and links, MFA, and the counters that limit them. */

/** An authorization request of the hosted /authorize flow (0003). */
export interface AuthRequestsTable {
  id: string;
  clientId: string;
  redirectUri: string;
  state: string | null;
  requestedScopesJson: string;
  grantedScopesJson: string;
  codeChallenge: string;
  codeChallengeMethod: string;
  resource: string | null;
  nonce: string | null;
  promptJson: string;
  maxAge: number | null;
  loginHint: string | null;
  requestedView: string | null;
  uiContext: string | null;
  /** SHA-256 hex of the id of the browser that started the request. */
  browserBinding: string;
  /** pending, organization_selection, consent, completed, denied. */
  status: string;
  email: string | null;
  userId: string | null;
  organizationId: string | null;
  amrJson: string | null;
  authTime: number | null;
  createdAt: number;
  updatedAt: number;
  expiresAt: number;
  completedAt: number | null;
  /** JSON AuthRequestChallenge of a pending hosted passwordless step (migration 0010). */
  challengeJson: Generated<string | null>;
  /** A device request's user code, sealed under the bound browser's id (migration 0012). */
  sealedDeviceUserCode: Generated<string | null>;
  /** The invitation the request is bound to, by id (migration 0017). */
  invitationId: Generated<string | null>;
  /** 1: the request's sign-in leaves the browser's issuer session alone (migration 0042); null: 0. */
  sessionless: Generated<number | null>;
}

/** A rate-limit counter (0005); the key holds hashes only. Interval gates use window start 0. */
export interface RateLimitCountersTable {
  key: string;
  windowStart: number;
  count: number;
  lastAt: number;
  expiresAt: number;
}

/** A counter of failed checks of a secret (0015); the key holds a hash, never the subject. */
export interface FailureCountersTable {
  key: string;
  windowStart: number;
  count: number;
  lockedUntil: number;
  expiresAt: number;
}

/** 0006: an email OTP challenge (login or signup); secrets as SHA-256 hashes. */
export interface EmailOtpChallengesTable {
  challengeHash: string;
  purpose: string;
  emailKey: string;
  clientId: string;
  organizationId: string | null;
  codeHash: string | null;
  attempts: number;
  signupTokenHash: string | null;
  signupJson: string | null;
  createdAt: number;
  expiresAt: number;
  consumedAt: number | null;
}

/** 0006: a single-use magic sign-in link bound to its client. */
export interface MagicLinksTable {
  tokenHash: string;
  userId: string;
  clientId: string;
  organizationId: string | null;
  createdAt: number;
  expiresAt: number;
  consumedAt: number | null;
  /** The hosted authorization request the link continues, or null for a direct link (migration 0010). */
  authRequestId: Generated<string | null>;
}

export interface MfaPoliciesTable {
  /** 'global' or an organization id. */
  scope: string;
  policyJson: string;
  updatedAt: number;
}

export interface MfaAuthenticatorsTable {
  id: string;
  userId: string;
  /** 'totp'. */
  kind: string;
  label: string;
  /** AES-256-GCM with the master key (kernel/crypto.ts SecretBox), bound to the authenticator id. */
  secretSealed: string;
  /** SHA-256 of the enrollment token while unconfirmed. */
  enrollmentTokenHash: string | null;
  /** SHA-256 of the MFA token a challenge-bound enrollment belongs to; null for self-enrollment. */
  challengeHash: string | null;
  enrollmentExpiresAt: number | null;
  confirmedAt: number | null;
  /** The last accepted TOTP time step: a code of that step or earlier is a replay. */
  lastUsedStep: number | null;
  enrollmentAttempts: Generated<number>;
  createdAt: number;
}

export interface MfaRecoveryCodesTable {
  id: string;
  userId: string;
  codeHash: string;
  usedAt: number | null;
  createdAt: number;
}

export interface MfaChallengesTable {
  tokenHash: string;
  userId: string;
  clientId: string;
  organizationId: string | null;
  flow: string;
  /** JSON {amr, authTime, resume}. */
  contextJson: string;
  enrollmentRequired: number;
  methodsJson: string;
  attempts: Generated<number>;
  createdAt: number;
  expiresAt: number;
  consumedAt: number | null;
}

/** A phone OTP challenge (migration 0007): hashes only; the provider holds the code. */
export interface PhoneOtpChallengesTable {
  id: string;
  challengeHash: string;
  /** 'login' | 'signup'. */
  purpose: string;
  phoneE164: string;
  /** The user a login challenge signs in; null for an unknown number and for signup. */
  userId: string | null;
  clientId: string;
  organizationId: string | null;
  attempts: Generated<number>;
  signupTokenHash: string | null;
  /** JSON {displayName, organizationName, customFields} of a signup challenge. */
  signupDataJson: string | null;
  createdAt: number;
  expiresAt: number;
  consumedAt: number | null;
}

/** An operator dashboard session (migration 0039): the cookie's secret as SHA-256, bound to a token session. */
export interface DashboardSessionsTable {
  id: string;
  secretHash: string;
  tokenSessionId: string;
  userId: string;
  createdAt: number;
  expiresAt: number;
}

import type { Generated } from 'kysely';

/**
 * Table types, camelCase in code (snake_case in SQL through Kysely's CamelCasePlugin). Portable column
 * choices made once: times are epoch-millisecond integers, booleans are 0/1 integers, JSON is text.
 */
export interface OrganizationsTable {
  id: string;
  name: string;
  slug: string;
  primaryDomain: string | null;
  active: number;
  createdAt: number;
  updatedAt: number;
}

export interface UsersTable {
  id: string;
  displayName: string;
  /** Null for an account created by phone OTP signup (migration 0010). */
  email: string | null;
  /** trim + invariant upper-case: the lookup key (SPEC.md "Email lookup key normalization"); unique when set. */
  emailKey: string | null;
  emailVerified: number;
  passwordHash: string | null;
  isOperator: number;
  active: number;
  createdAt: number;
  updatedAt: number;
  /** E.164 phone number for phone OTP sign-in (migration 0007); unique when set. */
  phoneE164: Generated<string | null>;
  phoneVerified: Generated<number>;
  /** JSON object of the signup's CustomFields, or null (migration 0010). */
  customFieldsJson: Generated<string | null>;
}

export interface MembershipsTable {
  id: string;
  organizationId: string;
  userId: string;
  role: string;
  active: number;
  createdAt: number;
  updatedAt: number;
}

export interface ClientsTable {
  id: string;
  clientId: string;
  name: string;
  audience: string;
  redirectUrisJson: string;
  postLogoutRedirectUrisJson: string;
  isFirstParty: number;
  allowedScopesJson: string;
  allowedResourcesJson: string;
  tokenEndpointAuthMethod: string;
  clientSecretHash: string | null;
  allowDeviceAuthorization: number;
  allowClientCredentials: number;
  active: number;
  createdAt: number;
  updatedAt: number;
}

export interface SecuritySettingsTable {
  id: string;
  refreshTokenLifetimeMinutes: number;
  sessionIdleTimeoutMinutes: number;
  sessionAbsoluteLifetimeMinutes: number;
  signingKeyRotationIntervalDays: number;
  signingKeyGraceWindowDays: number;
  signingKeyRetiredCleanupDays: number;
  refreshTokenGraceWindowSeconds: number;
  updatedAt: number;
}

export interface SigningKeysTable {
  kid: string;
  alg: string;
  publicJwkJson: string;
  /** PKCS#8 PEM sealed with the master key (AES-256-GCM, bound to the kid). */
  privateKeySealed: string;
  /** 1 while this is the signing key, NULL afterwards; unique, so at most one key signs. */
  activeSlot: number | null;
  createdAt: number;
  /** When a newer key replaced it; published until rotatedOutAt + grace window. */
  rotatedOutAt: number | null;
}

export interface AuditEventsTable {
  id: string;
  kind: string;
  occurredAt: number;
  actorType: string | null;
  actorId: string | null;
  organizationId: string | null;
  userId: string | null;
  clientId: string | null;
  ipAddress: string | null;
  dataJson: string;
}

/** A token session: the refresh-token family of one sign-in of one user at one client (0002). */
export interface SessionsTable {
  id: string;
  userId: string;
  /** The OAuth client_id string (not the clients row id). */
  clientId: string;
  organizationId: string | null;
  /** JSON list of the granted scopes; NULL for a session created before scopes were recorded. */
  grantedScopesJson: string | null;
  /** The RFC 8707 resource the family is bound to (the access tokens' aud); NULL = the client's audience. */
  resource: string | null;
  amrJson: string;
  /** When the user originally authenticated (epoch ms). */
  authTime: number;
  userAgent: string | null;
  ipAddress: string | null;
  createdAt: number;
  lastSeenAt: number;
  idleExpiresAt: number;
  absoluteExpiresAt: number;
  revokedAt: number | null;
  revokedReason: string | null;
}

export interface RefreshTokensTable {
  id: string;
  sessionId: string;
  /** SHA-256 hex of the token (`<id>.<secret>`); the token itself is never stored. */
  tokenHash: string;
  createdAt: number;
  expiresAt: number;
  consumedAt: number | null;
  revokedAt: number | null;
  /**
   * 2 for a token that names its row (`<id>.<secret>`, found by id); 1 for an opaque token from before
   * 0013 (found by `tokenHash`), the column's default.
   */
  tokenFormat: Generated<number>;
}

export interface AuthorizationCodesTable {
  /** SHA-256 hex of the code. */
  codeHash: string;
  clientId: string;
  userId: string;
  organizationId: string | null;
  redirectUri: string;
  /** The S256 challenge; NULL when the code is not PKCE-bound. */
  codeChallenge: string | null;
  scopeJson: string;
  resource: string | null;
  nonce: string | null;
  authTime: number;
  amrJson: string;
  createdAt: number;
  expiresAt: number;
  consumedAt: number | null;
  /** The session its redemption created, so that a replay can revoke it. */
  sessionId: string | null;
}

export interface PendingAuthTokensTable {
  tokenHash: string;
  /** 'organization_selection' now; the MFA issue adds its own purposes. */
  purpose: string;
  userId: string;
  clientId: string;
  /** The sign-in context needed to continue (flow, amr, auth time, the caller's resume data). */
  contextJson: string;
  createdAt: number;
  expiresAt: number;
  consumedAt: number | null;
}

/** The issuer session behind the hosted pages' session cookie. */
export interface BrowserSessionsTable {
  id: string;
  tokenHash: string;
  userId: string;
  amrJson: string;
  authTime: number;
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
}

/** A user's consent to a client's scopes; at most one active (unrevoked) grant per user and client. */
export interface ConsentGrantsTable {
  id: string;
  userId: string;
  clientId: string;
  scopesJson: string;
  grantedAt: number;
  updatedAt: number;
  revokedAt: number | null;
}

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
}

/** Operator overrides of built-in email templates (email/templates.ts), by template key. */
export interface EmailTemplatesTable {
  key: string;
  subject: string;
  textBody: string;
  htmlBody: string;
  updatedAt: number;
}

/** The email delivery log. Bodies are kept only for development outbox rows (never for SMTP). */
export interface EmailDeliveriesTable {
  id: string;
  templateKey: string;
  toAddress: string;
  subject: string;
  /** 'queued' | 'sent' | 'failed' | 'outbox' */
  status: string;
  providerMessageId: string | null;
  /** Sanitized: no credentials, no body, at most 500 characters. */
  failureDetail: string | null;
  textBody: string | null;
  htmlBody: string | null;
  createdAt: number;
  sentAt: number | null;
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

/** An email invitation (0009); only the current token's SHA-256 is stored. */
export interface InvitationsTable {
  id: string;
  organizationId: string;
  email: string;
  emailKey: string;
  role: string;
  clientId: string | null;
  redirectUri: string | null;
  /** JSON object text. */
  customFieldsJson: string;
  /** 'pending' | 'accepted' | 'revoked' | 'expired' */
  status: string;
  tokenHash: string;
  expiresAt: number;
  createdAt: number;
  resentAt: number | null;
  revokedAt: number | null;
  revokeReason: string | null;
  acceptedAt: number | null;
  acceptedUserId: string | null;
}

/** A password reset token (0008), by hash; 30 minutes, single use. */
export interface PasswordResetTokensTable {
  tokenHash: string;
  userId: string;
  createdAt: number;
  expiresAt: number;
  consumedAt: number | null;
}

/** An email verification token (0008), by hash; bound to the email key at issue time; 24 hours. */
export interface EmailVerificationTokensTable {
  tokenHash: string;
  userId: string;
  emailKey: string;
  createdAt: number;
  expiresAt: number;
  consumedAt: number | null;
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

export interface Database {
  organizations: OrganizationsTable;
  users: UsersTable;
  memberships: MembershipsTable;
  clients: ClientsTable;
  securitySettings: SecuritySettingsTable;
  signingKeys: SigningKeysTable;
  auditEvents: AuditEventsTable;
  sessions: SessionsTable;
  refreshTokens: RefreshTokensTable;
  authorizationCodes: AuthorizationCodesTable;
  pendingAuthTokens: PendingAuthTokensTable;
  browserSessions: BrowserSessionsTable;
  consentGrants: ConsentGrantsTable;
  authRequests: AuthRequestsTable;
  mfaPolicies: MfaPoliciesTable;
  mfaAuthenticators: MfaAuthenticatorsTable;
  mfaRecoveryCodes: MfaRecoveryCodesTable;
  mfaChallenges: MfaChallengesTable;
  rateLimitCounters: RateLimitCountersTable;
  failureCounters: FailureCountersTable;
  emailTemplates: EmailTemplatesTable;
  emailDeliveries: EmailDeliveriesTable;
  passwordResetTokens: PasswordResetTokensTable;
  emailVerificationTokens: EmailVerificationTokensTable;
  invitations: InvitationsTable;
  emailOtpChallenges: EmailOtpChallengesTable;
  magicLinks: MagicLinksTable;
  phoneOtpChallenges: PhoneOtpChallengesTable;
  deviceAuthorizations: DeviceAuthorizationsTable;
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

/** A device authorization request (migration 0012): hashes only; status pending, approved, denied or consumed. */
export interface DeviceAuthorizationsTable {
  /** SHA-256 hex of the device code. */
  deviceCodeHash: string;
  /** SHA-256 hex of the normalized user code; unique. */
  userCodeHash: string;
  clientId: string;
  scopeJson: string;
  resource: string | null;
  status: string;
  intervalSeconds: number;
  lastPolledAt: number | null;
  userId: string | null;
  organizationId: string | null;
  amrJson: string | null;
  authTime: number | null;
  decidedAt: number | null;
  consumedAt: number | null;
  sessionId: string | null;
  createdAt: number;
  expiresAt: number;
}

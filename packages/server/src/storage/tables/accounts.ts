import type { Generated } from 'kysely';

/** Organizations, users, clients, keys, settings, the audit log, invitations, account tokens and email. */

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
  /** The lookup key (docs/reference/organizations.md "Email identity"); unique when set. */
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
  /** 1 once housekeeping deleted a session of the account's own (migration 0044); else null. */
  signedInBefore: Generated<number | null>;
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
  /** JSON of a self-described client's own metadata (and its document's fetch times); null when an operator created it. */
  registrationJson: string | null;
  /** `dynamic` or `metadata_document`; null when an operator created it (or, before 0034 ran, a registration). */
  registrationMethod: string | null;
  /** When a self-described client first got tokens (epoch ms); null until then, and for an operator's. */
  firstUsedAt: number | null;
  /** Who may use it (migration 0036): an ApplicationAccessMode. */
  accessMode: Generated<string>;
  /** How many rows of application_access_assignments name it, kept in the same writes. */
  accessAssignments: Generated<number>;
}

/** An operator's allow or deny of one principal for one client (migration 0036). */
export interface ApplicationAccessAssignmentsTable {
  id: string;
  clientId: string;
  principalType: string;
  principalId: string | null;
  organizationId: string | null;
  roleKey: string | null;
  principalKey: string;
  effect: string;
  createdAt: number;
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
  /** The record the event is about (0046); null on older rows. */
  subjectId: string | null;
  ipAddress: string | null;
  dataJson: string;
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

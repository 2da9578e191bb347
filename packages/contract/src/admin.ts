import { z } from 'zod';
import { applicationAccessModeSchema } from './access-modes.js';
import { pageQuerySchema, searchQuerySchema } from './paging.js';
import {
  booleanQuerySchema,
  newPasswordSchema,
  optionalText,
  recordIdSchema,
  text,
  uniqueList,
} from './fields.js';

/**
 * Operator (admin) API bodies and records, camelCase (docs/reference/errors.md "Shapes"). Objects are not
 * strict: unknown keys are ignored, while a missing field or a wrong type is a 400 naming the field.
 * Free-text fields refuse control characters because PostgreSQL cannot store NUL in text and a name
 * with a line break only ever forges log lines.
 */

/** Lowercase a-z, 0-9 and single inner hyphens, 1-63 characters (a DNS label, so it fits a hostname too). */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const slugSchema = z.string().trim().min(1).max(63).regex(SLUG_PATTERN, {
  message: 'must be lowercase letters, digits and single hyphens (for example acme-corp)',
});

const DOMAIN_PATTERN =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A DNS domain name (internationalized names in their `xn--` form), lower-cased. */
export const domainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(DOMAIN_PATTERN, { message: 'must be a DNS domain such as example.com' });

// Printable ASCII, space to tilde.
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * Whether the part of an address before its last `@` is printable ASCII. Svc refuses other local parts
 * rather than fold them (docs/decisions/admin-email-identity-ascii-exact.md): Unicode case mapping makes
 * different addresses one (`ı` upper-cases to `I`).
 */
export function hasAsciiLocalPart(address: string): boolean {
  return PRINTABLE_ASCII.test(address.slice(0, Math.max(address.lastIndexOf('@'), 0)));
}

/**
 * An email address as typed (trimmed); the lookup key is derived from it server-side. ASCII only: a
 * local part that is not is refused with what to do, and an internationalized domain is written as its
 * A-label (`xn--…`), which is how the server compares domains anyway.
 */
export const emailSchema = z
  .string()
  .trim()
  .refine(hasAsciiLocalPart, {
    message: 'must be ASCII before the @: use an address whose part before the @ is ASCII',
    abort: true,
  })
  .refine((value) => PRINTABLE_ASCII.test(value), {
    message:
      'must write an internationalized domain in its ASCII form (bücher.example as xn--bcher-kva.example)',
    abort: true,
  })
  .pipe(z.email({ message: 'must be a valid email address' }).max(320));

/**
 * An absolute URI without a fragment (RFC 6749 §3.1.2, RFC 8707 §2), stored exactly as given because
 * redirect URIs are compared as exact strings. Any scheme parses (native apps use private-use schemes,
 * RFC 8252) except the script-bearing ones; `http:` is accepted for every host, and policy on
 * plain-HTTP redirects belongs to the authorization endpoint, not to registration.
 */
export const absoluteUriSchema = z
  .string()
  .min(1)
  .max(2048)
  .superRefine((value, ctx) => {
    if (/[\s\p{Cc}]/u.test(value)) {
      ctx.addIssue({ code: 'custom', message: 'must not contain whitespace or control characters' });
      return;
    }
    if (!URL.canParse(value)) {
      ctx.addIssue({ code: 'custom', message: 'must be an absolute URI' });
      return;
    }
    if (value.includes('#')) ctx.addIssue({ code: 'custom', message: 'must not contain a fragment' });
    const scheme = new URL(value).protocol;
    if (scheme === 'javascript:' || scheme === 'data:' || scheme === 'vbscript:' || scheme === 'file:') {
      ctx.addIssue({ code: 'custom', message: `the ${scheme} scheme is not allowed` });
    }
  });

/** RFC 6749 §3.3 scope-token: 1*( %x21 / %x23-5B / %x5D-7E ). */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** A scope token; `auth:*` scopes are internal to Svc and cannot be granted to a client by an operator. */
export const scopeTokenSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(SCOPE_TOKEN, { message: 'must be an RFC 6749 scope token (no spaces, quotes or backslashes)' })
  .refine((scope) => !scope.startsWith('auth:'), {
    message: 'auth:* scopes are internal and cannot be assigned',
  });

export const tokenEndpointAuthMethodSchema = z.enum(['none', 'client_secret_basic', 'client_secret_post']);
export type TokenEndpointAuthMethod = z.output<typeof tokenEndpointAuthMethodSchema>;

/**
 * Scopes a client may ask for when the operator names none: an OpenID login. offline_access is not in
 * it: refresh tokens are always issued to code-flow clients, and docs/reference/operator-api.md advertises offline_access only
 * when a client allowlists it explicitly.
 */
export const DEFAULT_CLIENT_SCOPES: readonly string[] = Object.freeze(['openid', 'profile', 'email']);

// ---- Request bodies -------------------------------------------------------------------------------

/** POST /organizations. `slug` null or omitted = generated from the name. */
export const createOrganizationBodySchema = z.object({
  name: text(1, 200),
  slug: optionalText(slugSchema),
  primaryDomain: optionalText(domainSchema),
});
export type CreateOrganizationBody = z.input<typeof createOrganizationBodySchema>;
export type CreateOrganizationInput = z.output<typeof createOrganizationBodySchema>;

/** POST /users. `password` null or omitted = a user who signs in without a password. */
export const createUserBodySchema = z.object({
  displayName: text(1, 200),
  email: emailSchema,
  password: newPasswordSchema.nullish().transform((v) => v ?? null),
});
export type CreateUserBody = z.input<typeof createUserBodySchema>;
export type CreateUserInput = z.output<typeof createUserBodySchema>;

/** A role name, trimmed and lower-cased so that policy checks (`owner`, `admin`) cannot be dodged by case. */
export const roleSchema = text(1, 64).transform((role) => role.toLowerCase());

/** POST /memberships. */
export const createMembershipBodySchema = z.object({
  organizationId: recordIdSchema,
  userId: recordIdSchema,
  role: roleSchema,
});
export type CreateMembershipBody = z.input<typeof createMembershipBodySchema>;
export type CreateMembershipInput = z.output<typeof createMembershipBodySchema>;

/**
 * POST /clients: the fields of docs/reference/operator-api.md and docs/reference/oauth-clients.md "The client registry". A confidential client
 * (`tokenEndpointAuthMethod` other than `none`) gets a generated secret, returned once.
 */
export const createClientBodySchema = z.object({
  clientId: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[\x21-\x7e]+$/, { message: 'must be printable ASCII without spaces' }),
  name: text(1, 200),
  audience: text(1, 2048),
  redirectUris: uniqueList(absoluteUriSchema, 50),
  /**
   * Where `{issuer}/session/end` (OpenID Connect RP-Initiated Logout 1.0) may send the browser after
   * logout: compared as exact strings with `post_logout_redirect_uri`, like redirectUris at /authorize.
   */
  postLogoutRedirectUris: uniqueList(absoluteUriSchema, 50).default([]),
  isFirstParty: z.boolean().default(false),
  allowedScopes: uniqueList(scopeTokenSchema, 64).default([...DEFAULT_CLIENT_SCOPES]),
  allowedResources: uniqueList(absoluteUriSchema, 50).default([]),
  tokenEndpointAuthMethod: tokenEndpointAuthMethodSchema.default('none'),
  allowDeviceAuthorization: z.boolean().default(false),
  allowClientCredentials: z.boolean().default(false),
});
export type CreateClientBody = z.input<typeof createClientBodySchema>;
export type CreateClientInput = z.output<typeof createClientBodySchema>;

/**
 * GET /clients: a page, and optionally only the clients that registered themselves (`dynamic`, RFC
 * 7591), only those known by their metadata document (`metadata_document`), or only those an operator
 * created (`operator`); `query` keeps a name that contains it, a clientId that starts with it (both in
 * any case) or the record id itself; `active` the active (or inactive) ones.
 */
export const clientListQuerySchema = pageQuerySchema.extend({
  registration: z.enum(['dynamic', 'metadata_document', 'operator']).optional(),
  query: searchQuerySchema.optional(),
  active: booleanQuerySchema.optional(),
});
export type ClientListQuery = z.input<typeof clientListQuerySchema>;
export type ClientListInput = z.output<typeof clientListQuerySchema>;

/** PUT /settings/security: integers; ranges and cross-field rules are checked by the server. */
export const securitySettingsUpdateBodySchema = z.object({
  refreshTokenLifetimeMinutes: z.number().int(),
  sessionIdleTimeoutMinutes: z.number().int(),
  sessionAbsoluteLifetimeMinutes: z.number().int(),
  signingKeyRotationIntervalDays: z.number().int(),
  signingKeyGraceWindowDays: z.number().int(),
  signingKeyRetiredCleanupDays: z.number().int(),
  /** Optional; 30 when omitted (docs/reference/operator-api.md). */
  refreshTokenGraceWindowSeconds: z.number().int().optional(),
});
export type SecuritySettingsUpdateBody = z.input<typeof securitySettingsUpdateBodySchema>;

const TEN_YEARS_MINUTES = 10 * 366 * 24 * 60;

/**
 * The inclusive bounds PUT /settings/security enforces on each field (docs/reference/operator-api.md
 * "Security settings"), for the server's check and for what a console says beside each
 * field. The lower bounds keep every lifetime usable; signingKeyGraceWindowDays must also be shorter
 * than signingKeyRotationIntervalDays.
 */
export const SECURITY_SETTINGS_BOUNDS = Object.freeze({
  refreshTokenLifetimeMinutes: [1, TEN_YEARS_MINUTES],
  sessionIdleTimeoutMinutes: [1, TEN_YEARS_MINUTES],
  sessionAbsoluteLifetimeMinutes: [1, TEN_YEARS_MINUTES],
  signingKeyRotationIntervalDays: [2, 3660],
  signingKeyGraceWindowDays: [1, 3660],
  signingKeyRetiredCleanupDays: [0, 3660],
  refreshTokenGraceWindowSeconds: [0, 3600],
} as const satisfies Record<keyof SecuritySettingsUpdateBody, readonly [number, number]>);

// ---- Records --------------------------------------------------------------------------------------

const timestamp = z.iso.datetime();

export const svcOrganizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  primaryDomain: z.string().nullable(),
  active: z.boolean(),
  createdAt: timestamp,
});
export type SvcOrganization = z.output<typeof svcOrganizationSchema>;

/** A user as operators see it: never a password hash, only whether one is set. */
export const svcUserSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  email: z.string().nullable(),
  emailVerified: z.boolean(),
  hasPassword: z.boolean(),
  isOperator: z.boolean(),
  active: z.boolean(),
  createdAt: timestamp,
});
export type SvcUser = z.output<typeof svcUserSchema>;

export const svcMembershipSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  userId: z.string(),
  role: z.string(),
  active: z.boolean(),
  createdAt: timestamp,
});
export type SvcMembership = z.output<typeof svcMembershipSchema>;

export const svcClientSchema = z.object({
  id: z.string(),
  clientId: z.string(),
  name: z.string(),
  audience: z.string(),
  redirectUris: z.array(z.string()),
  postLogoutRedirectUris: z.array(z.string()),
  isFirstParty: z.boolean(),
  allowedScopes: z.array(z.string()),
  allowedResources: z.array(z.string()),
  tokenEndpointAuthMethod: tokenEndpointAuthMethodSchema,
  allowDeviceAuthorization: z.boolean(),
  allowClientCredentials: z.boolean(),
  active: z.boolean(),
  /** Who may use it (docs/reference/application-access.md); set with POST /applications/{id}/access-mode. */
  accessMode: applicationAccessModeSchema,
  createdAt: timestamp,
  /**
   * A client that described itself, with the metadata it gave: `dynamic`, registered at `POST /register`
   * (RFC 7591); `metadata_document`, its clientId the URL of its Client ID Metadata Document, with when
   * Svc last fetched it and until when that copy is used. Null for a client an operator created.
   */
  registration: z
    .object({
      method: z.enum(['dynamic', 'metadata_document']),
      clientUri: z.string().nullable(),
      logoUri: z.string().nullable(),
      softwareId: z.string().nullable(),
      softwareVersion: z.string().nullable(),
      document: z.object({ fetchedAt: timestamp, freshUntil: timestamp }).nullable(),
      /** When it first got tokens; null while it never has (housekeeping deletes it a week after). */
      firstUsedAt: timestamp.nullable(),
    })
    .nullable(),
});
export type SvcClient = z.output<typeof svcClientSchema>;

/** The 201 answer of POST /clients: `clientSecret` is present once, for confidential clients only. */
export const svcCreatedClientSchema = svcClientSchema.extend({ clientSecret: z.string().optional() });
export type SvcCreatedClient = z.output<typeof svcCreatedClientSchema>;

/** docs/reference/operator-api.md SvcOrganizationOption: an organization a user may sign in to, with the user's role in it. */
export const svcOrganizationOptionSchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  role: z.string(),
});
export type SvcOrganizationOption = z.output<typeof svcOrganizationOptionSchema>;

/** The persisted security settings, as GET and PUT /settings/security answer them. */
export const svcSecuritySettingsSchema = z.object({
  refreshTokenLifetimeMinutes: z.number().int(),
  sessionIdleTimeoutMinutes: z.number().int(),
  sessionAbsoluteLifetimeMinutes: z.number().int(),
  signingKeyRotationIntervalDays: z.number().int(),
  signingKeyGraceWindowDays: z.number().int(),
  signingKeyRetiredCleanupDays: z.number().int(),
  refreshTokenGraceWindowSeconds: z.number().int(),
});
export type SvcSecuritySettings = z.output<typeof svcSecuritySettingsSchema>;

/**
 * GetResolvedSecuritySettingsAsync: the persisted settings plus the spans of docs/reference/operator-api.md
 * ("RefreshTokenLifetime, SessionIdleTimeout, SessionAbsoluteLifetime") in milliseconds.
 */
export interface ResolvedSecuritySettings extends SvcSecuritySettings {
  refreshTokenLifetimeMs: number;
  sessionIdleTimeoutMs: number;
  sessionAbsoluteLifetimeMs: number;
}

/** The schema of one page of a list (`data` newest first, `nextCursor` null on the last page). */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), nextCursor: z.string().nullable() });
}

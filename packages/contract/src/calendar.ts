import { z } from 'zod';
import { absoluteUriSchema } from './admin.js';
import { clientIdSchema, opaqueTokenSchema } from './auth.js';
import { recordIdSchema } from './fields.js';
import { pageQuerySchema } from './paging.js';

/**
 * Calendar connections (docs/reference/calendar.md): a signed-in user grants Svc access to
 * their Google or Microsoft calendar through one of the operator's provider connections; Svc keeps the
 * tokens sealed and hands the host app a fresh access token when it asks.
 */

/** The provider types a calendar connection can go through. */
export const CALENDAR_PROVIDER_TYPES = ['Google', 'Microsoft'] as const;
export type CalendarProviderType = (typeof CALENDAR_PROVIDER_TYPES)[number];

/**
 * `active`: tokens held; `reauthorization_required`: the provider refused the refresh token (the user
 * revoked access, a password change…), the user must consent again; `revoked`: revoked by the user or an
 * operator, no tokens held.
 */
export const CALENDAR_CONNECTION_STATUSES = ['active', 'reauthorization_required', 'revoked'] as const;
export type CalendarConnectionStatus = (typeof CALENDAR_CONNECTION_STATUSES)[number];

/**
 * The `error` GET /calendar/callback adds to the ReturnUri when the consent did not end in a connection:
 *
 * - `access_denied`: the user refused at the provider;
 * - `insufficient_scope`: the user granted less than the calendar scopes asked for;
 * - `provider_error`: the provider refused the request or the code, or answered something malformed;
 * - `invalid_callback`: the provider's answer failed Svc's checks (issuer, ID token, no code), or it
 *   came back to another browser than the one that opened the consent's link;
 * - `provider_unavailable`: the provider could not be reached;
 * - `connection_unavailable`: the provider connection was disabled, or the user deactivated, meanwhile;
 * - `login_required`: the browser that opened the link (or came back) is not signed in to Svc's hosted
 *   pages as the consent's user: sign the user in there (`/authorize`) and start again;
 * - `server_error`: anything else (logged by Svc).
 */
export const CALENDAR_CALLBACK_ERRORS = [
  'access_denied',
  'insufficient_scope',
  'provider_error',
  'invalid_callback',
  'provider_unavailable',
  'connection_unavailable',
  'login_required',
  'server_error',
] as const;
export type CalendarCallbackError = (typeof CALENDAR_CALLBACK_ERRORS)[number];

/** A scope as the provider spells it (RFC 6749 scope-token: Google's are URLs). */
const calendarScopeSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/, {
    message: 'must be a scope token (no spaces, quotes or backslashes)',
  });

/**
 * The calendar scopes to ask for instead of the provider's default; each must be one Svc allows for the
 * provider (the server checks). Omitted or null: the default.
 */
const calendarScopesSchema = z
  .array(calendarScopeSchema)
  .min(1, { message: 'must list at least one calendar scope (omit it for the default)' })
  .max(10)
  .transform((scopes) => [...new Set(scopes)])
  .nullish()
  .transform((scopes) => scopes ?? null);

const consentFields = {
  /** The Google or Microsoft provider connection (an OIDC connection's id) to consent through. */
  connectionId: recordIdSchema,
  /**
   * Where GET /calendar/callback sends the browser back, with `calendarConnectionId` or `error` added to
   * its query: one of the client's registered redirect URIs, or the same origin and path with a query
   * of the app's own.
   */
  returnUri: absoluteUriSchema,
  scopes: calendarScopesSchema,
};

/** POST /calendar/authorization-url: the user's first-party session (its refresh token) proves who asks. */
export const svcCalendarAuthorizationUrlRequestSchema = z.object({
  refreshToken: opaqueTokenSchema,
  ...consentFields,
});
export type SvcCalendarAuthorizationUrlRequest = z.input<typeof svcCalendarAuthorizationUrlRequestSchema>;

/** StartConnectionAsync (in process): the host vouches for the user; `clientId` is the app returned to. */
export const svcStartCalendarConnectionRequestSchema = z.object({
  userId: recordIdSchema,
  clientId: clientIdSchema,
  ...consentFields,
});
export type SvcStartCalendarConnectionRequest = z.input<typeof svcStartCalendarConnectionRequestSchema>;

/** Where to send the user's browser to consent, and until when that consent can come back. */
export const svcCalendarAuthorizationSchema = z.object({
  authorizationUrl: z.string(),
  expiresAt: z.iso.datetime(),
});
export type SvcCalendarAuthorization = z.output<typeof svcCalendarAuthorizationSchema>;

/** A calendar connection as its user and operators read it: never a token. */
export const svcCalendarConnectionSchema = z.object({
  id: z.string(),
  userId: z.string(),
  /** The provider connection it goes through. */
  connectionId: z.string(),
  providerType: z.enum(CALENDAR_PROVIDER_TYPES),
  /** The account at the provider whose calendar it is (its email when the provider gave one). */
  accountEmail: z.string().nullable(),
  /** The scopes the provider granted. */
  scopes: z.array(z.string()),
  status: z.enum(CALENDAR_CONNECTION_STATUSES),
  /** Whether Svc holds a refresh token, so that access outlives the current access token. */
  offlineAccess: z.boolean(),
  accessTokenExpiresAt: z.iso.datetime().nullable(),
  lastRefreshedAt: z.iso.datetime().nullable(),
  revokedAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type SvcCalendarConnection = z.output<typeof svcCalendarConnectionSchema>;

/** GetAccessTokenAsync: a provider access token valid for at least another minute. */
export const svcCalendarAccessTokenSchema = z.object({
  calendarConnectionId: z.string(),
  providerType: z.enum(CALENDAR_PROVIDER_TYPES),
  accessToken: z.string(),
  tokenType: z.literal('Bearer'),
  expiresAt: z.iso.datetime(),
  scopes: z.array(z.string()),
});
export type SvcCalendarAccessToken = z.output<typeof svcCalendarAccessTokenSchema>;

/** A calendar connection's id, as a path parameter or a field. */
export const svcCalendarConnectionIdSchema = recordIdSchema;

/** The `{id}` of the operator's `/connections/{id}` routes. */
export const calendarConnectionPathSchema = z.object({ id: svcCalendarConnectionIdSchema });

/** POST /calendar/connections: a page of the user's own connections, proven by their first-party session. */
export const svcOwnCalendarConnectionsRequestSchema = pageQuerySchema.extend({
  refreshToken: opaqueTokenSchema,
});
export type SvcOwnCalendarConnectionsRequest = z.input<typeof svcOwnCalendarConnectionsRequestSchema>;

/** POST /calendar/connections/revoke: the user's own connection, proven by their first-party session. */
export const svcRevokeCalendarConnectionRequestSchema = z.object({
  refreshToken: opaqueTokenSchema,
  calendarConnectionId: recordIdSchema,
});
export type SvcRevokeCalendarConnectionRequest = z.input<typeof svcRevokeCalendarConnectionRequestSchema>;

/** GET /svc/admin/calendar/api/connections: a page, optionally of one user's connections. */
export const calendarConnectionListQuerySchema = pageQuerySchema.extend({
  userId: recordIdSchema.optional(),
});
export type CalendarConnectionListQuery = z.input<typeof calendarConnectionListQuerySchema>;

/** DELETE /svc/admin/calendar/api/connections/{id}. */
export const svcCalendarConnectionDeleteResultSchema = z.object({ deleted: z.literal(true) });
export type SvcCalendarConnectionDeleteResult = z.output<typeof svcCalendarConnectionDeleteResultSchema>;

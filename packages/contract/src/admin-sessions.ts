import { z } from 'zod';
import { emailSchema } from './admin.js';
import { svcOrganizationSummarySchema, svcUserSummarySchema } from './admin-directory.js';
import { clientIdSchema } from './auth.js';
import { booleanQuerySchema, recordIdSchema, text } from './fields.js';
import { pageQuerySchema } from './paging.js';

/**
 * The operator's token sessions (docs/reference/operator-api.md: `GET /sessions`,
 * `POST /sessions/revocation/preview`, `POST /sessions/revocation`; docs/reference/operator-api.md).
 * As in the other admin bodies, unknown keys are ignored and a wrong type is a 400 naming the field.
 */

/** The most sessions one revocation may match (docs/reference/limits.md "Sizes and lengths": rejected when matching more than 10,000). */
export const MAX_SESSIONS_PER_REVOCATION = 10_000;

/**
 * GET /sessions: a page, filtered by every given field. `clientId` is the OAuth client_id or the client's
 * record id; `email` the user's exact address (compared by its lookup key, so in any case); `active`
 * keeps the sessions that are (or are no longer) usable: not revoked and before their idle and absolute
 * deadlines.
 */
export const sessionListQuerySchema = pageQuerySchema.extend({
  userId: recordIdSchema.optional(),
  email: emailSchema.optional(),
  organizationId: recordIdSchema.optional(),
  clientId: clientIdSchema.optional(),
  active: booleanQuerySchema.optional(),
});
export type SessionListQuery = z.input<typeof sessionListQuerySchema>;
export type SessionListInput = z.output<typeof sessionListQuerySchema>;

/** An operation id chosen by the caller: printable ASCII without spaces, at most 128 characters. */
const operationIdSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[\x21-\x7e]+$/, { message: 'must be printable ASCII without spaces' });

/**
 * SvcAdminSessionRevocationRequest (docs/reference/operator-api.md "Revocation"), the body of both revocation routes: at least one of
 * `sessionId`, `userId`, `organizationId`, `clientApplicationId` (the client's record id or its clientId),
 * combined with AND. Execution needs `confirm: true`; `expectedMatchedSessions`, when given, must equal
 * the number of sessions matched now; an `operationId` makes execution idempotent for the same selector
 * and reason. The preview reads only the selector.
 */
export const svcAdminSessionRevocationRequestSchema = z
  .object({
    sessionId: recordIdSchema.optional(),
    userId: recordIdSchema.optional(),
    organizationId: recordIdSchema.optional(),
    clientApplicationId: clientIdSchema.optional(),
    confirm: z.boolean().optional(),
    expectedMatchedSessions: z.number().int().min(0).optional(),
    reason: text(1, 500).optional(),
    operationId: operationIdSchema.optional(),
  })
  .refine(
    (request) =>
      request.sessionId !== undefined ||
      request.userId !== undefined ||
      request.organizationId !== undefined ||
      request.clientApplicationId !== undefined,
    { message: 'name at least one of sessionId, userId, organizationId, clientApplicationId' },
  );
export type SvcAdminSessionRevocationRequest = z.input<typeof svcAdminSessionRevocationRequestSchema>;
export type SvcAdminSessionRevocationInput = z.output<typeof svcAdminSessionRevocationRequestSchema>;

const timestamp = z.iso.datetime();

/** A token session as operators see it: never a token or a hash. */
export const svcSessionSchema = z.object({
  id: z.string(),
  userId: z.string(),
  /** The session's user, read in the same query as the session. */
  user: svcUserSummarySchema,
  /** The client, by its OAuth client_id; `name` is null when the client no longer exists. */
  client: z.object({ clientId: z.string(), name: z.string().nullable() }),
  /** Null for a user-scoped session (a user without organizations). */
  organizationId: z.string().nullable(),
  /** The organization of `organizationId`, read in the same query; null for a user-scoped session. */
  organization: svcOrganizationSummarySchema.nullable(),
  /** The OAuth client_id. */
  clientId: z.string(),
  /** How the user signed in (RFC 8176 `amr` values, for example `["pwd"]`). */
  authenticationMethods: z.array(z.string()),
  /** Not revoked and before both deadlines, now. */
  active: z.boolean(),
  createdAt: timestamp,
  lastSeenAt: timestamp,
  idleExpiresAt: timestamp,
  absoluteExpiresAt: timestamp,
  revokedAt: timestamp.nullable(),
  /** Why it was revoked (`logout`, `user_deactivated`, `admin_revoked`…); null while it is not. */
  revokedReason: z.string().nullable(),
  /**
   * The device and address the session was created from: the browser's for a hosted or headless sign-in
   * (where the user was, not the client's backend that redeemed the code), the caller's for a direct
   * sign-in or a device poll. The user agent is cut to 512 characters; null when unknown (sessions created
   * before they were recorded, an in-process call without them).
   */
  userAgent: z.string().nullable(),
  ipAddress: z.string().nullable(),
});
export type SvcSession = z.output<typeof svcSessionSchema>;

/** POST /sessions/revocation/preview: what an execution would match now; nothing changes. */
export const svcAdminSessionRevocationPreviewSchema = z.object({
  matchedSessions: z.number().int(),
  /** The matched sessions' refresh tokens not yet consumed, revoked or expired. */
  activeRefreshTokens: z.number().int(),
  /**
   * The live issuer (browser) sessions an execution ends: those of the user the selector names and of
   * every user whose sessions it matches, so that no browser signs them in again silently.
   */
  activeBrowserSessions: z.number().int(),
});
export type SvcAdminSessionRevocationPreview = z.output<typeof svcAdminSessionRevocationPreviewSchema>;

/** POST /sessions/revocation: `matchedSessions` = `newlyRevokedSessions` + `alreadyRevokedSessions`. */
export const svcAdminSessionRevocationResultSchema = z.object({
  matchedSessions: z.number().int(),
  newlyRevokedSessions: z.number().int(),
  alreadyRevokedSessions: z.number().int(),
  /** The refresh tokens that were still usable and are revoked now. */
  newlyRevokedRefreshTokens: z.number().int(),
  /** The issuer (browser) sessions ended now (see the preview's `activeBrowserSessions`). */
  endedBrowserSessions: z.number().int(),
});
export type SvcAdminSessionRevocationResult = z.output<typeof svcAdminSessionRevocationResultSchema>;

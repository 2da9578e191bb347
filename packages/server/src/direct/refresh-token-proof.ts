import {
  opaqueTokenSchema,
  svcRemoveLinkedIdentityRequestSchema,
  svcRevokeAccountGrantRequestSchema,
} from '@svc/contract';
import { z } from 'zod';
import { inactiveRefreshTokenError } from '../oauth/tokens/session-revocation.js';

/** A refresh token that may be absent (null), but not malformed. */
export const presentedRefreshToken = opaqueTokenSchema.nullish().transform((value) => value ?? null);

/**
 * The body of POST /logout-all and POST /account/grants as the routes read it: `{ refreshToken }` with
 * the token allowed to be absent, so that a missing token is told apart from a malformed one. docs/reference/sign-in.md "Direct JSON helpers"
 * "Errors": "logout-all / account grants with inactive, missing or consumed refresh token … → 401";
 * a token of the wrong type or shape is still a 400 naming the field.
 */
export const refreshTokenProofBodySchema = z.object({ refreshToken: presentedRefreshToken });

/** The body of POST /account/identities/remove, read the same way. */
export const identityRemoveBodySchema = svcRemoveLinkedIdentityRequestSchema.extend({
  refreshToken: presentedRefreshToken,
});

/** The body of POST /account/grants/revoke with the same reading of a missing refresh token. */
export const grantRevokeBodySchema = svcRevokeAccountGrantRequestSchema.extend({
  refreshToken: presentedRefreshToken,
});

/**
 * The refresh token that proves the session (Authentication 5: "proof of ownership is the refresh token
 * only"); no token proves nothing, which is the same 401 `invalid_token` as an inactive one.
 */
export function requirePresentedRefreshToken(refreshToken: string | null): string {
  if (refreshToken === null) throw inactiveRefreshTokenError();
  return refreshToken;
}

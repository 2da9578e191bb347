import type { JWTPayload } from 'jose';
import type { AccessTokenValidator } from '../tokens/access-token-validator.js';
import { userClaims } from '../tokens/token-claims.js';
import { bearerChallenge, type BearerErrorCode, readBearerToken } from './bearer.js';

export interface UserinfoDeps {
  readonly accessTokens: Pick<AccessTokenValidator, 'validate'>;
}

/** Where a userinfo request carried its token (the route passes both; the service decides). */
export interface UserinfoRequest {
  readonly authorizationHeader?: string | undefined;
  /** The POST form's `access_token` (an array when repeated); undefined on GET. */
  readonly formAccessToken?: string | readonly string[] | undefined;
}

/** A userinfo answer: the claims, or a Bearer challenge with its status. */
export type UserinfoOutcome =
  | { readonly kind: 'claims'; readonly claims: JWTPayload }
  | {
      readonly kind: 'challenge';
      readonly status: 400 | 401 | 403;
      /** Null for the bare challenge of a request without a token (no error information). */
      readonly error: { readonly code: BearerErrorCode; readonly description: string } | null;
      readonly wwwAuthenticate: string;
    };

const INVALID_TOKEN = 'The access token is invalid, expired or revoked, or its session has ended.';
const NO_OPENID = 'The access token was not granted the openid scope.';

/**
 * The userinfo endpoint (docs/reference/tokens-and-sessions.md "Userinfo"; OpenID Connect Core §5.3). Validation is session-aware:
 * signature, issuer, lifetime with one minute of skew, any audience the token was issued for (the token
 * is the client's own, whatever resource it targets), a live session — not revoked, before its idle
 * deadline and its absolute expiry — and an active user (and membership for an organization-scoped
 * session). Outcomes, never throws:
 *
 * | Request | Answer |
 * |---|---|
 * | no token | 401 `WWW-Authenticate: Bearer` |
 * | malformed (bad header, token twice) | 400 `Bearer error="invalid_request"` |
 * | bad, expired or session-dead token; a client_credentials token (no session) | 401 `Bearer error="invalid_token"` |
 * | live token whose session's grant lacks openid | 403 `Bearer error="insufficient_scope"` |
 * | otherwise | the claims |
 *
 * Claims: `sub` and `amr` always; name, preferred_username and updated_at with `profile`; email and
 * email_verified with `email`; `org_id` when the session is organization-scoped.
 */
export class UserinfoService {
  readonly #deps: UserinfoDeps;

  constructor(deps: UserinfoDeps) {
    this.#deps = deps;
  }

  async claims(request: UserinfoRequest): Promise<UserinfoOutcome> {
    const bearer = readBearerToken(request.authorizationHeader, request.formAccessToken);
    if (bearer.kind === 'none') {
      return { kind: 'challenge', status: 401, error: null, wwwAuthenticate: bearerChallenge() };
    }
    if (bearer.kind === 'malformed') return challenge(400, 'invalid_request', bearer.description);

    const validated = await this.#deps.accessTokens.validate(bearer.token, {
      audience: null,
      enforceIdleDeadline: true,
    });
    if (validated === null) return challenge(401, 'invalid_token', INVALID_TOKEN);
    const { session, user } = validated;
    // docs/reference/tokens-and-sessions.md "Userinfo": The session's granted scope must include openid.
    const scopes = session.grantedScopes ?? [];
    if (!scopes.includes('openid')) return challenge(403, 'insufficient_scope', NO_OPENID);

    return {
      kind: 'claims',
      claims: {
        sub: session.userId,
        ...userClaims(user, scopes),
        amr: [...session.amr],
        ...(session.organizationId === null ? {} : { org_id: session.organizationId }),
      },
    };
  }
}

function challenge(status: 400 | 401 | 403, code: BearerErrorCode, description: string): UserinfoOutcome {
  const error = { code, description };
  return { kind: 'challenge', status, error, wwwAuthenticate: bearerChallenge(error) };
}

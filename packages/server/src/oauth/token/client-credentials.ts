import type { TokenEndpointAuthMethod } from '@svc/contract';
import type { ClientRecord } from '../../directory/repository.js';
import { oauthError } from '../errors.js';
import { formatScope, grantScopes, parseScope } from '../scopes.js';
import type { TokenService } from '../tokens/token-service.js';
import { ACCESS_TOKEN_LIFETIME_SECONDS, ACCESS_TOKEN_TYP, TOKEN_TYPE } from '../tokens/token-policy.js';

/**
 * Scopes that only mean something for a signed-in user: `openid` (docs/reference/tokens-and-sessions.md "The token endpoint": an id_token is "never present
 * for client_credentials") and `offline_access` (there is no refresh token). They are never granted to a
 * client acting for itself, even when allowlisted.
 */
const USER_ONLY_SCOPES: ReadonlySet<string> = new Set(['openid', 'offline_access']);

export interface ClientCredentialsDeps {
  readonly tokens: Pick<TokenService, 'sign'>;
}

export interface ClientCredentialsRequest {
  /** The client the token endpoint authenticated, and how. */
  readonly client: ClientRecord;
  readonly method: TokenEndpointAuthMethod;
  /** The raw `scope` parameter; undefined when absent. */
  readonly scope: string | undefined;
  /** The checked RFC 8707 resource; null for the client's audience. */
  readonly resource: string | null;
}

/** The client_credentials answer (RFC 6749 §4.4.3): no refresh token, no ID token, scope always. */
export interface ClientCredentialsResponseBody {
  access_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
}

/**
 * The client_credentials grant (RFC 6749 §4.4; docs/reference/tokens-and-sessions.md "The token endpoint" mentions it "for scope handling, no id_token").
 *
 * - Only a confidential client that authenticated and is registered with `allowClientCredentials` may
 *   use it; any other client gets unauthorized_client.
 * - Scope: the same silent intersection as everywhere (oauth/scopes.ts grantScopes: unknown scopes
 *   dropped, never rejected; nothing requested grants nothing), with the allow-list minus openid and
 *   offline_access. `scope` is always in the answer ('' for an empty grant, docs/reference/tokens-and-sessions.md "The token endpoint").
 * - The access token is an RS256 JWT (`typ` at+jwt, RFC 9068) with `sub` = `client_id` = the client,
 *   `aud` = the requested resource or else the client's audience, `scope` when non-empty. It has no
 *   `sid`: no user and no session stand behind it, so it is validated by resource servers with the JWKS
 *   (signature, issuer, audience, lifetime); the session-aware in-process validation and userinfo refuse
 *   it. It lives as long as a user's access token (15 minutes).
 * - Issuance is not audited, like the user grants' token issuance; nothing is stored.
 */
export class ClientCredentialsGrant {
  readonly #deps: ClientCredentialsDeps;

  constructor(deps: ClientCredentialsDeps) {
    this.#deps = deps;
  }

  async issue(request: ClientCredentialsRequest): Promise<ClientCredentialsResponseBody> {
    const { client } = request;
    if (request.method === 'none' || !client.allowClientCredentials) {
      throw oauthError.unauthorizedClient('This client is not allowed to use the client_credentials grant.');
    }
    const allowList = client.allowedScopes.filter((scope) => !USER_ONLY_SCOPES.has(scope));
    const scopes = grantScopes(parseScope(request.scope), allowList);
    const accessToken = await this.#deps.tokens.sign(
      {
        client_id: client.clientId,
        // RFC 9068 §2.2.3: scope is present only when scopes were granted (as for user tokens).
        ...(scopes.length > 0 ? { scope: formatScope(scopes) } : {}),
      },
      {
        typ: ACCESS_TOKEN_TYP,
        subject: client.clientId,
        audience: request.resource ?? client.audience,
        expiresInSeconds: ACCESS_TOKEN_LIFETIME_SECONDS,
      },
    );
    return {
      access_token: accessToken,
      token_type: TOKEN_TYPE,
      expires_in: ACCESS_TOKEN_LIFETIME_SECONDS,
      scope: formatScope(scopes),
    };
  }
}

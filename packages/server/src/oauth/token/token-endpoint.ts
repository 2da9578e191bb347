import { storedUserAgent } from '../../kernel/user-agent.js';
import { DEVICE_CODE_GRANT_TYPE, deviceCodeGrant } from '../device/device-code-grant.js';
import { oauthError } from '../errors.js';
import { authorizationCodeGrant } from './authorization-code-grant.js';
import { clientCredentialsGrant } from './client-credentials-grant.js';
import { FormParameters } from './form-parameters.js';
import type { TokenEndpointBody, TokenGrant, TokenGrantDeps } from './grant-context.js';
import { refreshTokenGrant } from './refresh-token-grant.js';

export type { TokenEndpointBody, TokenGrantDeps as TokenEndpointDeps } from './grant-context.js';

const GRANTS: ReadonlyMap<string, TokenGrant> = new Map([
  ['authorization_code', authorizationCodeGrant],
  ['refresh_token', refreshTokenGrant],
  ['client_credentials', clientCredentialsGrant],
  [DEVICE_CODE_GRANT_TYPE, deviceCodeGrant],
]);

/** The grant types POST /token serves, as advertised by discovery (`grant_types_supported`). */
export const SUPPORTED_GRANT_TYPES: readonly string[] = Object.freeze([...GRANTS.keys()]);

/** One POST /token request as the route hands it over. */
export interface TokenEndpointRequest {
  /** The parsed form body; undefined for a request without one. */
  readonly body: unknown;
  readonly authorizationHeader?: string | undefined;
  readonly userAgent?: string | undefined;
  readonly ipAddress?: string | undefined;
}

/**
 * POST /token (RFC 6749 §3.2, docs/reference/tokens-and-sessions.md "The token endpoint"): reads the form once (a repeated parameter other
 * than `resource` is invalid_request; empty values count as omitted), then dispatches on grant_type:
 *
 * - missing grant_type → invalid_request
 * - authorization_code, refresh_token, client_credentials and RFC 8628's device_code → that grant
 * - every other value → unsupported_grant_type
 *
 * Failures are thrown OAuthErrors, which the OAuth error mapper answers as `{ error, error_description }`
 * with no-store.
 */
export class TokenEndpoint {
  readonly #deps: TokenGrantDeps;

  constructor(deps: TokenGrantDeps) {
    this.#deps = deps;
  }

  async exchange(request: TokenEndpointRequest): Promise<TokenEndpointBody> {
    const params = FormParameters.from(request.body);
    const grantType = params.require('grant_type');
    const grant = GRANTS.get(grantType);
    if (grant === undefined) {
      throw oauthError.unsupportedGrantType(
        `The grant_type is not supported. Use authorization_code, refresh_token, client_credentials or ${DEVICE_CODE_GRANT_TYPE}.`,
      );
    }
    return grant(
      {
        params,
        credentials: {
          authorizationHeader: request.authorizationHeader,
          bodyClientId: params.get('client_id'),
          bodyClientSecret: params.get('client_secret'),
          ipAddress: request.ipAddress ?? null,
        },
        userAgent: storedUserAgent(request.userAgent) ?? null,
        ipAddress: request.ipAddress ?? null,
      },
      this.#deps,
    );
  }
}

import {
  authorizationCodeGrant,
  fetchUserInfo,
  type AuthorizationCodeGrantChecks,
  type ServerMetadata,
} from 'openid-client';
import type { Clock } from '../../kernel/clock.js';
import { callbackUrl, clientAuth, clientConfiguration, keepJwks } from './client-configuration.js';
import type { OidcConnection } from './enabled-connections.js';
import type { ProviderMetadata } from './provider-metadata.js';
import { fromLibraryError, OidcRelyingPartyError } from './rp-errors.js';
import { tenantIssuerGrant } from './tenant-issuer-grant.js';
import { tokenSetOf, type OidcTokenSet } from './token-set.js';
import type { UpstreamHttp } from './upstream-http.js';

export interface OidcGrantInput {
  readonly connection: OidcConnection;
  readonly metadata: ProviderMetadata;
  readonly clientSecret: string;
  /** The callback's parameters, as received (the query of a GET, the body of a form post). */
  readonly parameters: URLSearchParams;
  readonly expectedState: NonNullable<AuthorizationCodeGrantChecks['expectedState']>;
  readonly expectedNonce: string;
  readonly codeVerifier: string;
  readonly redirectUri: string;
  /** True for the exchange of a first-party app, which hands over only the code (no `iss`). */
  readonly exchange: boolean;
  readonly http: UpstreamHttp;
  readonly clock: Clock;
}

/**
 * What an OpenID provider said about the user: the validated ID token's claims and UserInfo's; and what
 * its token endpoint granted, for a caller that keeps the tokens.
 */
export interface OidcClaims {
  readonly idToken: Readonly<Record<string, unknown>>;
  readonly userInfo: Readonly<Record<string, unknown>> | null;
  readonly tokens: OidcTokenSet;
}

/**
 * The OpenID Connect code grant through openid-client: the callback checked (`state`, RFC 9207 `iss`),
 * the code redeemed once with its PKCE verifier, the ID token required and validated (signature through
 * the provider's JWKS, `iss`, `aud`, `nonce`, `exp`/`iat`), then UserInfo when the connection uses it
 * and the provider has one (its `sub` must be the ID token's). A multi-tenant Microsoft issuer goes
 * through {@link tenantIssuerGrant}.
 */
export async function oidcGrant(input: OidcGrantInput): Promise<OidcClaims> {
  const { connection, metadata, http, clock } = input;
  let idToken: Record<string, unknown>;
  let tokenSet: OidcTokenSet;
  if (metadata.issuerTemplate !== null) {
    const { tokens, claims } = await tenantIssuerGrant({
      metadata,
      issuerTemplate: metadata.issuerTemplate,
      clientId: connection.clientId,
      clientAuth: clientAuth(connection, input.clientSecret),
      parameters: input.parameters,
      expectedState: input.expectedState,
      expectedNonce: input.expectedNonce,
      codeVerifier: input.codeVerifier,
      redirectUri: input.redirectUri,
      http,
      clock,
    });
    idToken = { ...claims };
    tokenSet = tokenSetOf(tokens);
  } else {
    const config = clientConfiguration(connection, metadata, {
      http,
      clock,
      clientSecret: input.clientSecret,
      server: input.exchange ? withoutIssParameterRule(metadata.server, input.parameters) : undefined,
    });
    try {
      const tokens = await authorizationCodeGrant(config, callbackUrl(input.redirectUri, input.parameters), {
        pkceCodeVerifier: input.codeVerifier,
        expectedState: input.expectedState,
        expectedNonce: input.expectedNonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (claims === undefined) {
        throw new OidcRelyingPartyError('invalid_id_token', 'The provider answered no ID token.');
      }
      idToken = { ...claims };
      tokenSet = tokenSetOf(tokens);
    } catch (error) {
      throw fromLibraryError('the token request', error);
    } finally {
      keepJwks(config, metadata);
    }
  }

  const profile = connection.profile;
  if (!profile.useUserInfo || typeof metadata.server.userinfo_endpoint !== 'string') {
    return { idToken, userInfo: null, tokens: tokenSet };
  }
  const config = clientConfiguration(connection, metadata, { http, clock, clientSecret: null });
  try {
    const userInfo = await fetchUserInfo(config, tokenSet.accessToken, String(idToken.sub));
    return { idToken, userInfo: { ...userInfo }, tokens: tokenSet };
  } catch (error) {
    const mapped = fromLibraryError('UserInfo', error);
    if (mapped.code === 'invalid_provider_response' && mapped.detail?.includes('sub') === true) {
      throw new OidcRelyingPartyError(
        'invalid_provider_response',
        "The provider's UserInfo names another subject than its ID token.",
        { detail: mapped.detail },
      );
    }
    throw mapped;
  }
}

/**
 * The exchange of a first-party app hands over only the code it received: no `iss` to check. The
 * provider's RFC 9207 rule is then not applied (the app's callback is bound to this connection).
 */
function withoutIssParameterRule(
  server: ServerMetadata,
  parameters: URLSearchParams,
): ServerMetadata | undefined {
  if (parameters.has('iss') || server.authorization_response_iss_parameter_supported !== true)
    return undefined;
  return { ...server, authorization_response_iss_parameter_supported: false };
}

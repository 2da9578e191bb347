import { decodeJwt } from 'jose';
import * as oauth from 'oauth4webapi';
import type { ClientAuth, IDToken, TokenEndpointResponse } from 'oauth4webapi';
import type { Clock } from '../../kernel/clock.js';
import type { ProviderMetadata } from './provider-metadata.js';
import { TENANT_PLACEHOLDER } from './provider-metadata.js';
import { fromLibraryError, OidcRelyingPartyError } from './rp-errors.js';
import type { UpstreamHttp } from './upstream-http.js';

/** Microsoft's tenant ids are GUIDs; nothing else may stand in the issuer's `{tenantid}`. */
const TENANT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TENANT_ID_SOURCE = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

export interface TenantIssuerGrantInput {
  readonly metadata: ProviderMetadata;
  readonly issuerTemplate: string;
  readonly clientId: string;
  readonly clientAuth: ClientAuth;
  /** The callback's parameters, as received. */
  readonly parameters: URLSearchParams;
  readonly expectedState: string | typeof oauth.skipStateCheck;
  readonly expectedNonce: string;
  readonly codeVerifier: string;
  readonly redirectUri: string;
  readonly http: UpstreamHttp;
  readonly clock: Clock;
}

/**
 * The authorization code grant of a multi-tenant Microsoft connection (`common`, `organizations`,
 * `consumers`), whose discovery document names the issuer `https://login.microsoftonline.com/{tenantid}/v2.0`:
 * each ID token's issuer is that template with the token's own `tid` in its place. The steps are
 * oauth4webapi's (the library openid-client is built on), with the tenant's issuer given to the ID token
 * validation, as its author advises for this case: the code is redeemed, the `tid` is read from the
 * answer, then the library validates the ID token against `template(tid)` (signature through the
 * provider's JWKS, `iss`, `aud`, `nonce`, expiry) exactly as for any other issuer. A token whose `iss` is
 * not its own tenant's is refused by that comparison.
 */
export async function tenantIssuerGrant(
  input: TenantIssuerGrantInput,
): Promise<{ tokens: TokenEndpointResponse; claims: IDToken }> {
  const { metadata, issuerTemplate, http } = input;
  const client: oauth.Client = {
    client_id: input.clientId,
    [oauth.clockSkew]: Math.round((input.clock.now() - Date.now()) / 1000),
  };
  const requestOptions = {
    [oauth.customFetch]: http.customFetch,
    [oauth.allowInsecureRequests]: metadata.insecure,
  };

  // RFC 9207: an `iss` in the callback must be one of the template's tenants (checked against the token
  // below); the library would compare it with the template itself, so it is taken out before.
  const parameters = new URLSearchParams(input.parameters);
  const callbackIssuer = parameters.get('iss');
  if (callbackIssuer !== null && !templatePattern(issuerTemplate).test(callbackIssuer)) {
    throw new OidcRelyingPartyError(
      'invalid_callback',
      'The callback names another issuer than the provider.',
    );
  }
  parameters.delete('iss');
  const server: oauth.AuthorizationServer = {
    ...metadata.server,
    authorization_response_iss_parameter_supported: false,
  };

  let callback: URLSearchParams;
  try {
    callback = oauth.validateAuthResponse(server, client, parameters, input.expectedState);
  } catch (error) {
    throw fromLibraryError('the callback', error);
  }

  let response: Response;
  try {
    response = await oauth.authorizationCodeGrantRequest(
      server,
      client,
      input.clientAuth,
      callback,
      input.redirectUri,
      input.codeVerifier,
      { ...requestOptions, signal: http.signal() },
    );
  } catch (error) {
    throw fromLibraryError('the token request', error);
  }

  const tenantId = await tenantOf(response);
  const tenantServer: oauth.AuthorizationServer = {
    ...server,
    issuer: tenantId === null ? issuerTemplate : issuerTemplate.replaceAll(TENANT_PLACEHOLDER, tenantId),
  };
  try {
    const tokens = await oauth.processAuthorizationCodeResponse(tenantServer, client, response, {
      expectedNonce: input.expectedNonce,
      requireIdToken: true,
    });
    if (tenantId === null) {
      throw new OidcRelyingPartyError('invalid_id_token', "The provider's ID token names no tenant (tid).");
    }
    await oauth.validateApplicationLevelSignature(tenantServer, response, {
      ...requestOptions,
      signal: http.signal(),
      [oauth.jwksCache]: metadata.jwksCache,
    });
    const claims = oauth.getValidatedIdTokenClaims(tokens);
    if (claims === undefined || claims.tid !== tenantId) {
      throw new OidcRelyingPartyError('invalid_id_token', "The provider's ID token names no tenant (tid).");
    }
    if (callbackIssuer !== null && callbackIssuer !== claims.iss) {
      throw new OidcRelyingPartyError(
        'invalid_callback',
        'The callback names another issuer than the ID token.',
      );
    }
    return { tokens, claims };
  } catch (error) {
    throw fromLibraryError('the token request', error);
  }
}

/**
 * The `tid` of the ID token in a successful token answer, read before validation only to know which
 * issuer to validate against; null when there is none (the validation then refuses the answer).
 */
async function tenantOf(response: Response): Promise<string | null> {
  if (response.status !== 200) return null;
  try {
    const body = (await response.clone().json()) as { id_token?: unknown };
    if (typeof body.id_token !== 'string') return null;
    const tid = decodeJwt(body.id_token).tid;
    return typeof tid === 'string' && TENANT_ID.test(tid) ? tid : null;
  } catch {
    return null;
  }
}

function templatePattern(template: string): RegExp {
  const [before = '', ...rest] = template.split(TENANT_PLACEHOLDER);
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return new RegExp(`^${escape(before)}${TENANT_ID_SOURCE}${escape(rest.join(TENANT_PLACEHOLDER))}$`);
}

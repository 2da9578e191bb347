import { refreshTokenGrant, tokenRevocation } from 'openid-client';
import type { Clock } from '../../kernel/clock.js';
import { clientConfiguration, keepJwks } from './client-configuration.js';
import type { OidcConnection } from './enabled-connections.js';
import type { ProviderMetadata } from './provider-metadata.js';
import { fromLibraryError } from './rp-errors.js';
import { tokenSetOf, type OidcTokenSet } from './token-set.js';
import type { UpstreamHttp } from './upstream-http.js';

export interface TokenGrantContext {
  readonly connection: OidcConnection;
  readonly metadata: ProviderMetadata;
  readonly clientSecret: string;
  readonly http: UpstreamHttp;
  readonly clock: Clock;
}

/**
 * The refresh token grant (RFC 6749 §6) through openid-client. An ID token in the answer is validated
 * like at the code grant; a multi-tenant Microsoft issuer (`…/{tenantid}/v2.0`) is validated as
 * `issuer`, the user's own tenant's issuer that the first ID token named. A refused refresh token is
 * `provider_error` with the provider's `invalid_grant`.
 */
export async function refreshGrant(
  context: TokenGrantContext,
  refreshToken: string,
  issuer: string,
): Promise<OidcTokenSet> {
  const { connection, metadata, http, clock } = context;
  const server = metadata.issuerTemplate === null ? undefined : { ...metadata.server, issuer };
  const config = clientConfiguration(connection, metadata, {
    http,
    clock,
    clientSecret: context.clientSecret,
    server,
  });
  try {
    return tokenSetOf(await refreshTokenGrant(config, refreshToken));
  } catch (error) {
    throw fromLibraryError('the refresh', error);
  } finally {
    keepJwks(config, metadata);
  }
}

/**
 * Token revocation (RFC 7009) when the provider has an endpoint for it (Google does, Microsoft does
 * not): answers false when there is none.
 */
export async function revokeGrant(context: TokenGrantContext, refreshToken: string): Promise<boolean> {
  const { connection, metadata, http, clock } = context;
  if (typeof metadata.server.revocation_endpoint !== 'string') return false;
  const config = clientConfiguration(connection, metadata, {
    http,
    clock,
    clientSecret: context.clientSecret,
  });
  try {
    await tokenRevocation(config, refreshToken, { token_type_hint: 'refresh_token' });
    return true;
  } catch (error) {
    throw fromLibraryError('the revocation', error);
  }
}

import {
  allowInsecureRequests,
  ClientSecretBasic,
  ClientSecretPost,
  clockSkew,
  Configuration,
  customFetch,
  enableNonRepudiationChecks,
  getJwksCache,
  None,
  setJwksCache,
  type ClientAuth,
  type CustomFetch,
  type ServerMetadata,
} from 'openid-client';
import type { ExportedJWKSCache } from 'oauth4webapi';
import type { Clock } from '../../kernel/clock.js';
import type { OidcConnection } from './enabled-connections.js';
import type { ProviderMetadata } from './provider-metadata.js';
import type { UpstreamHttp } from './upstream-http.js';

export interface ClientConfigurationOptions {
  readonly http: UpstreamHttp;
  readonly clock: Clock;
  /** The client secret (Apple: the signed JWT); null builds a client that only makes authorization URLs. */
  readonly clientSecret: string | null;
  /** A fetch to use instead of the plain upstream one (GitHub's token answers are normalized through it). */
  readonly fetch?: CustomFetch | undefined;
  /** Server metadata to use instead of `metadata.server` (a callback without `iss`). */
  readonly server?: ServerMetadata | undefined;
}

/**
 * The library's view of one sign-in through a connection: the provider metadata, the client, how it
 * authenticates at the token endpoint, and the rules every request follows. Built for each operation
 * (it is cheap), so that a rotated client secret and the injected clock hold at once:
 *
 * - the library's time is the injected clock's (its `clockSkew`), so that tests move time for ID-token
 *   expiry as for everything else;
 * - ID tokens are verified against the provider's JWKS (`enableNonRepudiationChecks`: openid-client checks
 *   claims but not the signature of a token it received over TLS unless told to);
 * - plain-http endpoints are allowed only when every one was checked as loopback and allowed.
 */
export function clientConfiguration(
  connection: OidcConnection,
  metadata: ProviderMetadata,
  options: ClientConfigurationOptions,
): Configuration {
  const secret = options.clientSecret;
  const skewSeconds = Math.round((options.clock.now() - Date.now()) / 1000);
  const config = new Configuration(
    options.server ?? metadata.server,
    connection.clientId,
    { [clockSkew]: skewSeconds },
    clientAuth(connection, secret),
  );
  config.timeout = options.http.timeoutSeconds;
  config[customFetch] = options.fetch ?? options.http.customFetch;
  if (metadata.insecure) allowInsecureRequests(config);
  if (connection.profile.protocol === 'oidc') enableNonRepudiationChecks(config);
  const jwks = metadata.jwksCache;
  if ('uat' in jwks && 'jwks' in jwks) setJwksCache(config, jwks as ExportedJWKSCache);
  return config;
}

/** Keeps the JWKS the library fetched for the next sign-in through the connection. */
export function keepJwks(config: Configuration, metadata: ProviderMetadata): void {
  const cache = getJwksCache(config);
  if (cache !== undefined) Object.assign(metadata.jwksCache, cache);
}

/**
 * docs/reference/federation.md "Fields each provider type requires, refuses and fixes": ClientSecretPost
 * (default) or ClientSecretBasic; Apple always posts.
 */
export function clientAuth(connection: OidcConnection, secret: string | null): ClientAuth {
  if (secret === null) return None();
  return connection.profile.clientAuthMethod === 'ClientSecretBasic'
    ? ClientSecretBasic(secret)
    : ClientSecretPost(secret);
}

/** The callback as openid-client reads it: the redirect URI with the provider's parameters. */
export function callbackUrl(redirectUri: string, parameters: URLSearchParams): URL {
  const url = new URL(redirectUri);
  for (const [name, value] of parameters) url.searchParams.append(name, value);
  return url;
}

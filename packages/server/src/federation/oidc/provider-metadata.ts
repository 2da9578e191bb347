import { allowInsecureRequests, customFetch, discovery, type ServerMetadata } from 'openid-client';
import type { JWKSCacheInput } from 'oauth4webapi';
import { HOUR_MS, type Clock } from '../../kernel/clock.js';
import { LruMap } from '../../kernel/lru-map.js';
import type { OidcConnection } from './enabled-connections.js';
import type { OidcProviderProfile } from './provider-defaults.js';
import { fromLibraryError, OidcRelyingPartyError } from './rp-errors.js';
import type { UpstreamHttp } from './upstream-http.js';

/** How long a discovery document is used before it is fetched again. */
export const DISCOVERY_TTL_MS = HOUR_MS;
const CACHE_CAPACITY = 1000;
const WELL_KNOWN = '/.well-known/openid-configuration';
/** Microsoft's multi-tenant documents name their issuer with this placeholder for the user's tenant id. */
export const TENANT_PLACEHOLDER = '{tenantid}';

/** What the sign-in uses of a provider: its endpoints, and a JWKS cache shared by the sign-ins through it. */
export interface ProviderMetadata {
  /** The discovery document (or the manual endpoints) with the connection's endpoint overrides in place. */
  readonly server: ServerMetadata;
  /**
   * For a multi-tenant Microsoft document (`common`, `organizations`, `consumers`), its issuer with the
   * `{tenantid}` placeholder; the ID token's issuer is then this with the token's `tid` in its place.
   */
  readonly issuerTemplate: string | null;
  /** True when an endpoint is plain http on loopback (development and tests). */
  readonly insecure: boolean;
  /** The provider's signing keys as last fetched; the library fills it in and refreshes it. */
  readonly jwksCache: JWKSCacheInput;
}

interface Entry {
  /** The connection's settings the document was read for: another fingerprint means read it again. */
  readonly fingerprint: string;
  readonly document: ServerMetadata;
  readonly expiresAt: number;
  readonly jwksCache: JWKSCacheInput;
}

export interface ProviderMetadataCacheDeps {
  readonly clock: Clock;
  readonly http: UpstreamHttp;
  readonly ttlMs?: number | undefined;
}

/**
 * Provider metadata per connection: the discovery document is fetched once and kept for
 * {@link DISCOVERY_TTL_MS}, concurrent sign-ins share one fetch, and a failed fetch is not kept (the next
 * sign-in tries again). A connection whose discovery URL or manual endpoints changed is read anew. Per
 * node and safe to lose.
 */
export class ProviderMetadataCache {
  readonly #deps: ProviderMetadataCacheDeps;
  readonly #entries = new LruMap<string, Entry>(CACHE_CAPACITY);
  readonly #inFlight = new Map<string, Promise<Entry>>();

  constructor(deps: ProviderMetadataCacheDeps) {
    this.#deps = deps;
  }

  /** The connection's provider metadata, discovered when not cached. */
  async resolve(connection: OidcConnection): Promise<ProviderMetadata> {
    const fingerprint = fingerprintOf(connection.profile);
    let entry = this.#entries.get(connection.id);
    if (
      entry === undefined ||
      entry.fingerprint !== fingerprint ||
      entry.expiresAt <= this.#deps.clock.now()
    ) {
      const flight = `${connection.id}\n${fingerprint}`;
      let pending = this.#inFlight.get(flight);
      if (pending === undefined) {
        pending = this.#load(connection, fingerprint).finally(() => this.#inFlight.delete(flight));
        this.#inFlight.set(flight, pending);
      }
      entry = await pending;
    }
    return this.#withOverrides(connection.profile, entry);
  }

  /** Drops what is cached for the connection (after it was updated or deleted). */
  forget(connectionId: string): void {
    this.#entries.delete(connectionId);
  }

  async #load(connection: OidcConnection, fingerprint: string): Promise<Entry> {
    const profile = connection.profile;
    const document =
      profile.protocol === 'oauth_profile'
        ? profileDocument(profile)
        : profile.discoveryUrl === null
          ? manualDocument(profile)
          : await this.#discover(connection, profile.discoveryUrl);
    const entry: Entry = {
      fingerprint,
      document,
      expiresAt: this.#deps.clock.now() + (this.#deps.ttlMs ?? DISCOVERY_TTL_MS),
      jwksCache: {},
    };
    this.#entries.set(connection.id, entry);
    return entry;
  }

  async #discover(connection: OidcConnection, discoveryUrl: string): Promise<ServerMetadata> {
    const http = this.#deps.http;
    const insecure = http.checkUrl(discoveryUrl, 'discovery document URL');
    const url = new URL(discoveryUrl);
    // OpenID Connect Discovery §4.3: the document's issuer must be the URL it was read under. openid-client
    // checks it when given the issuer rather than the document's URL. Microsoft's documents name another
    // issuer (a tenant id for a domain, `{tenantid}` for the multi-tenant ones): checked below instead.
    const byIssuer =
      connection.profile.issuerCheck === 'exact' && url.search === '' && url.pathname.endsWith(WELL_KNOWN);
    const server = byIssuer ? new URL(url.origin + url.pathname.slice(0, -WELL_KNOWN.length)) : url;
    let document: ServerMetadata;
    try {
      const config = await discovery(server, connection.clientId, undefined, undefined, {
        timeout: http.timeoutSeconds,
        [customFetch]: http.customFetch,
        execute: insecure ? [allowInsecureRequests] : [],
      });
      document = config.serverMetadata();
    } catch (error) {
      const mapped = fromLibraryError('the discovery', error);
      if (mapped.code === 'provider_unavailable' || mapped.code === 'provider_configuration') throw mapped;
      throw new OidcRelyingPartyError(
        'provider_configuration',
        `The provider's discovery document (${discoveryUrl}) cannot be used: ${
          mapped.detail?.includes('issuer') === true
            ? 'its issuer is not the URL it was read from'
            : 'it is not valid'
        }.`,
        { ...(mapped.detail === null ? {} : { detail: mapped.detail }) },
      );
    }
    if (
      document.issuer.includes(TENANT_PLACEHOLDER) &&
      connection.profile.issuerCheck !== 'microsoft_tenant'
    ) {
      throw new OidcRelyingPartyError(
        'provider_configuration',
        `The provider's discovery document (${discoveryUrl}) names a templated issuer, which only a Microsoft connection accepts.`,
      );
    }
    return document;
  }

  #withOverrides(profile: OidcProviderProfile, entry: Entry): ProviderMetadata {
    const server: Record<string, unknown> = { ...entry.document };
    // The connection's endpoints win over the document's (docs/reference/federation.md "Endpoint overrides
    // and accepted URLs").
    if (profile.authorizationEndpoint !== null) server.authorization_endpoint = profile.authorizationEndpoint;
    if (profile.tokenEndpoint !== null) server.token_endpoint = profile.tokenEndpoint;
    if (profile.userInfoEndpoint !== null) server.userinfo_endpoint = profile.userInfoEndpoint;
    const metadata = server as unknown as ServerMetadata;
    const http = this.#deps.http;
    let insecure = false;
    const required =
      profile.protocol === 'oidc'
        ? (['authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const)
        : (['authorization_endpoint', 'token_endpoint'] as const);
    for (const name of required) {
      const value = metadata[name];
      if (typeof value !== 'string') {
        throw new OidcRelyingPartyError('provider_configuration', `The provider has no ${name}.`);
      }
      insecure = http.checkUrl(value, name) || insecure;
    }
    for (const name of ['userinfo_endpoint'] as const) {
      const value = metadata[name];
      if (typeof value === 'string') insecure = http.checkUrl(value, name) || insecure;
    }
    if (profile.emailsEndpoint !== null)
      insecure = http.checkUrl(profile.emailsEndpoint, 'emails API') || insecure;
    return {
      server: metadata,
      issuerTemplate: metadata.issuer.includes(TENANT_PLACEHOLDER) ? metadata.issuer : null,
      insecure,
      jwksCache: entry.jwksCache,
    };
  }
}

function fingerprintOf(profile: OidcProviderProfile): string {
  const { protocol, discoveryUrl, issuer, jwksUri, authorizationEndpoint } = profile;
  return [protocol, discoveryUrl, issuer, jwksUri, authorizationEndpoint].map((v) => v ?? '').join('\n');
}

/** A manual Custom connection: its own issuer, endpoints and JWKS URI. */
function manualDocument(profile: OidcProviderProfile): ServerMetadata {
  if (profile.issuer === null || profile.jwksUri === null) {
    throw new OidcRelyingPartyError(
      'provider_configuration',
      'The connection has neither a discovery document nor an issuer and a JWKS URI.',
    );
  }
  return { issuer: profile.issuer, jwks_uri: profile.jwksUri };
}

/**
 * GitHub's OAuth profile: no discovery and no ID token. The library needs an issuer to name; the origin
 * of the authorization endpoint stands in for it (GitHub sends no `iss` in its callbacks).
 */
function profileDocument(profile: OidcProviderProfile): ServerMetadata {
  if (profile.authorizationEndpoint === null) {
    throw new OidcRelyingPartyError(
      'provider_configuration',
      'The connection has no authorization endpoint.',
    );
  }
  return { issuer: new URL(profile.authorizationEndpoint).origin };
}

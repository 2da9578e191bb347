import type { IncomingMessage } from 'node:http';
import type { JWK } from 'jose';
import {
  startLoopbackServer,
  signInAtOidcProvider,
  type ConsentChoices,
  type LoopbackServer,
} from './loopback-server.js';
import { createProviderInstance, type PeerAccount, type PeerClient } from './oidc-provider-instance.js';
import type { TestUserAgent } from './user-agent.js';

export type { PeerAccount, PeerClient } from './oidc-provider-instance.js';

export interface OidcPeerOptions {
  readonly clients: readonly PeerClient[];
  readonly accounts: readonly PeerAccount[];
  /**
   * `custom`: a plain OpenID provider that releases profile and email claims at UserInfo only (its ID
   * token carries `sub`); `google`: Google's shape, those claims in the ID token too, `email_verified` a
   * boolean.
   */
  readonly shape?: 'custom' | 'google';
  /** Scopes known besides the OpenID ones (Google's calendar scopes), granted at consent. */
  readonly extraScopes?: readonly string[];
  /**
   * Refresh tokens: the Google shape issues one for `access_type=offline` with `prompt=consent`, as
   * Google does, and keeps it at refresh (`keep`); the custom shape for `offline_access`. Default none.
   */
  readonly refreshTokens?: 'rotate' | 'keep';
  /** How long access tokens live, in seconds (default 3600). */
  readonly accessTokenTtlSeconds?: number;
}

/** A real OpenID provider (node-oidc-provider) on loopback. */
export interface OidcPeer {
  readonly issuer: string;
  readonly discoveryUrl: string;
  readonly authorizationEndpoint: string;
  readonly tokenEndpoint: string;
  readonly userInfoEndpoint: string;
  readonly jwksUri: string;
  /** The private signing key (a test forges with another one). */
  readonly signingKey: JWK;
  readonly server: LoopbackServer;
  /** Follows the authorization URL signed in as `accountId` (consenting as `choices` say); answers the callback URL. */
  signIn(
    authorizationUrl: string | URL,
    accountId: string,
    agent?: TestUserAgent,
    choices?: ConsentChoices,
  ): Promise<URL>;
  close(): Promise<void>;
}

export async function startOidcPeer(options: OidcPeerOptions): Promise<OidcPeer> {
  const server = await startLoopbackServer();
  const issuer = server.origin;
  const instance = createProviderInstance({
    issuer,
    clients: options.clients,
    accounts: options.accounts,
    claimsInIdToken: options.shape === 'google',
    extraScopes: options.extraScopes,
    refreshTokens: options.refreshTokens,
    accessTokenTtlSeconds: options.accessTokenTtlSeconds,
  });
  const google = options.shape === 'google';
  server.serve((request, response) => {
    if (google) offlineAccessAsGoogle(request);
    instance.handle(request, response);
  });
  return {
    issuer,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    authorizationEndpoint: `${issuer}/auth`,
    tokenEndpoint: `${issuer}/token`,
    userInfoEndpoint: `${issuer}/me`,
    jwksUri: `${issuer}/jwks`,
    signingKey: instance.signingKey,
    server,
    signIn: (authorizationUrl, accountId, agent, choices) =>
      signInAtOidcProvider(authorizationUrl, server.origin, accountId, agent, choices),
    close: () => server.close(),
  };
}

/**
 * Google asks for offline access with `access_type=offline` rather than the `offline_access` scope
 * (which it does not know): the authorization request is read as node-oidc-provider understands it, so
 * that only a request with that parameter (and `prompt=consent`) gets a refresh token.
 */
function offlineAccessAsGoogle(request: IncomingMessage): void {
  const url = new URL(request.url ?? '/', 'http://peer');
  if (url.pathname !== '/auth' || url.searchParams.get('access_type') !== 'offline') return;
  const scopes = (url.searchParams.get('scope') ?? '').split(' ').filter((scope) => scope !== '');
  url.searchParams.set('scope', [...scopes, 'offline_access'].join(' '));
  request.url = `${url.pathname}${url.search}`;
}

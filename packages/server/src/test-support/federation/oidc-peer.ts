import type { JWK } from 'jose';
import { startLoopbackServer, signInAtOidcProvider, type LoopbackServer } from './loopback-server.js';
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
  /** Follows the authorization URL signed in as `accountId`; answers the callback URL. */
  signIn(authorizationUrl: string | URL, accountId: string, agent?: TestUserAgent): Promise<URL>;
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
  });
  server.serve((request, response) => instance.handle(request, response));
  return {
    issuer,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    authorizationEndpoint: `${issuer}/auth`,
    tokenEndpoint: `${issuer}/token`,
    userInfoEndpoint: `${issuer}/me`,
    jwksUri: `${issuer}/jwks`,
    signingKey: instance.signingKey,
    server,
    signIn: (authorizationUrl, accountId, agent) =>
      signInAtOidcProvider(authorizationUrl, server.origin, accountId, agent),
    close: () => server.close(),
  };
}

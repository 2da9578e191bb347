import { createHash, randomBytes } from 'node:crypto';
import type { SvcCreatedClient } from '@svc/contract';
import type { LightMyRequestResponse } from 'fastify';
import type { SvcOptions } from '../../config/options.js';
import type { Dialect } from '../../storage/database.js';
import { createDirectHarness, type DirectHarness } from '../direct-test-app.js';
import { PROVIDERS_ON_LOOPBACK } from './loopback-server.js';
import type { OidcPeer, PeerAccount } from './oidc-peer.js';

/** The first-party app's own callback, registered at the provider and allowed by the connection. */
export const APP_CALLBACK = 'https://app.example.com/oidc/callback';
/** A second callback of the app, allowed as well. */
export const OTHER_APP_CALLBACK = 'https://app.example.com/oidc/other-callback';

/** The provider's client for Svc: both app callbacks registered. */
export const PEER_CLIENT = {
  clientId: 'svc-app',
  clientSecret: 'peer-secret-0123456789',
  redirectUris: [APP_CALLBACK, OTHER_APP_CALLBACK],
};

/** Who can sign in at the provider: a verified address, an unverified one. */
export const PEER_ACCOUNTS: readonly PeerAccount[] = [
  { id: 'alice', email: 'alice@example.com', emailVerified: true, name: 'Alice Liddell' },
  { id: 'bob', email: 'bob@example.com', emailVerified: false, name: 'Bob' },
];

/** The checks a first-party app keeps between its start and its callback. */
export interface AppChecks {
  readonly state: string;
  readonly nonce: string;
  readonly codeVerifier: string;
  readonly codeChallenge: string;
}

export function appChecks(): AppChecks {
  const codeVerifier = randomBytes(32).toString('base64url');
  return {
    state: randomBytes(16).toString('base64url'),
    nonce: randomBytes(16).toString('base64url'),
    codeVerifier,
    codeChallenge: createHash('sha256').update(codeVerifier).digest('base64url'),
  };
}

/** A test Svc with a first-party app and a Custom connection to `peer`, driven as that app drives it. */
export interface ProviderApp {
  readonly h: DirectHarness;
  readonly client: SvcCreatedClient;
  readonly connectionId: string;
  /** POST /oidc/authorization-url for `client` with fresh checks (`body` overrides fields). */
  start(body?: Record<string, unknown>): Promise<{ response: LightMyRequestResponse; checks: AppChecks }>;
  /** Starts, signs in at the provider as `account`, and answers the exchange body of the callback's code. */
  signIn(account: string, body?: Record<string, unknown>): Promise<Record<string, unknown>>;
  exchange(body: Record<string, unknown>): Promise<LightMyRequestResponse>;
}

/** A provider the app signs in at: a peer, or a discovery document alone (nothing to sign in at then). */
export type AppProvider = Pick<OidcPeer, 'discoveryUrl'> & Partial<Pick<OidcPeer, 'signIn'>>;

export async function createProviderApp(
  kind: Dialect,
  peer: AppProvider,
  options: SvcOptions = PROVIDERS_ON_LOOPBACK,
): Promise<ProviderApp> {
  const h = await createDirectHarness(kind, options);
  // The provider's ID tokens are stamped with the real time: the relying party checks them on Svc's clock.
  h.t.clock.set(Date.now());
  const client = await h.given.client();
  const connection = await h.t.svc.admin.createOidcConnectionAsync({
    providerType: 'Custom',
    displayName: 'Corporate',
    clientId: PEER_CLIENT.clientId,
    clientSecret: PEER_CLIENT.clientSecret,
    discoveryUrl: peer.discoveryUrl,
    allowedCallbackUris: [APP_CALLBACK, OTHER_APP_CALLBACK],
  });
  const app: ProviderApp = {
    h,
    client,
    connectionId: connection.id,
    async start(body = {}) {
      const checks = appChecks();
      const response = await h.post('/oidc/authorization-url', {
        connectionId: connection.id,
        clientId: client.clientId,
        callbackUri: APP_CALLBACK,
        state: checks.state,
        nonce: checks.nonce,
        codeChallenge: checks.codeChallenge,
        codeChallengeMethod: 'S256',
        ...body,
      });
      return { response, checks };
    },
    async signIn(account, body = {}) {
      const { response, checks } = await app.start(body);
      if (response.statusCode !== 200) throw new Error(`start failed: ${response.body}`);
      if (peer.signIn === undefined) throw new Error('nothing to sign in at');
      const callback = await peer.signIn(
        response.json<{ authorizationUrl: string }>().authorizationUrl,
        account,
      );
      // The app compares the state on its own callback before it hands the code over.
      if (callback.searchParams.get('state') !== checks.state) throw new Error('the state came back changed');
      return {
        connectionId: connection.id,
        clientId: client.clientId,
        callbackUri: APP_CALLBACK,
        code: callback.searchParams.get('code'),
        codeVerifier: checks.codeVerifier,
        nonce: checks.nonce,
        iss: callback.searchParams.get('iss'),
      };
    },
    exchange: (body) => h.post('/oidc/exchange', body),
  };
  return app;
}

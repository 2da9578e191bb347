import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JWK } from 'jose';
import Provider, { type AdapterFactory, type AdapterPayload, type JWK as ProviderJwk } from 'oidc-provider';
import { nextRsaTestKeyPair } from '../rsa-test-keys.js';

/** A user of a test OpenID provider and the claims it releases about them. */
export interface PeerAccount {
  readonly id: string;
  readonly email?: string;
  /** As the provider sends it: a boolean, a string ("true"), or omitted (`undefined`). */
  readonly emailVerified?: boolean | string;
  readonly name?: string;
  readonly givenName?: string;
  readonly familyName?: string;
  readonly preferredUsername?: string;
  /** Further claims released with the `openid` scope (Microsoft's `tid`, `oid`…). */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** A client registered at a test OpenID provider. */
export interface PeerClient {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly redirectUris: readonly string[];
  readonly authMethod?: 'client_secret_post' | 'client_secret_basic';
}

export interface ProviderInstanceOptions {
  readonly issuer: string;
  readonly clients: readonly PeerClient[];
  readonly accounts: readonly PeerAccount[];
  /** The path the instance is mounted under on its server ('' at the root). */
  readonly mountPath?: string;
  /** Profile and email claims in the ID token too, as Google and Microsoft send them (default true). */
  readonly claimsInIdToken?: boolean;
  /** The signing key (RS256); instances of one Microsoft-shaped provider share theirs. */
  readonly signingKey?: JWK;
  /** Claim names released with the `openid` scope besides `sub` (default none). */
  readonly openidClaims?: readonly string[];
  /** Scopes the provider knows besides the OpenID ones (a calendar API's), granted at consent. */
  readonly extraScopes?: readonly string[] | undefined;
  /**
   * Refresh tokens for `offline_access` (asked with `prompt=consent`): `rotate` issues a new one at each
   * refresh and retires the old (Microsoft), `keep` answers without one (Google). Default: none issued.
   */
  readonly refreshTokens?: 'rotate' | 'keep' | undefined;
  /** How long access tokens live, in seconds (default 3600). */
  readonly accessTokenTtlSeconds?: number | undefined;
}

/** One oidc-provider instance and the node handler that serves it (with its interaction route). */
export interface ProviderInstance {
  readonly provider: Provider;
  readonly signingKey: JWK;
  /** Serves a request whose URL starts with the mount path. */
  handle(request: IncomingMessage, response: ServerResponse): void;
}

/** An RS256 signing key as a private JWK. */
export function rsaSigningKey(kid = `k-${randomBytes(4).toString('hex')}`): JWK {
  const { privateKey } = nextRsaTestKeyPair();
  return { ...(privateKey.export({ format: 'jwk' }) as JWK), kid, alg: 'RS256', use: 'sig' };
}

/** The public half of a private JWK, for a JWKS document. */
export function publicJwk(key: JWK): JWK {
  const { kty, n, e, crv, x, y, kid, alg, use } = key;
  return Object.fromEntries(
    Object.entries({ kty, n, e, crv, x, y, kid, alg, use }).filter(([, value]) => value !== undefined),
  ) as JWK;
}

/**
 * node-oidc-provider configured as a provider Svc signs in through: code flow with PKCE, confidential
 * clients (`client_secret_post` or `_basic`), RS256 ID tokens, UserInfo, RFC 9207 `iss` in callbacks,
 * its own in-memory storage (codes are single use: a second redemption is `invalid_grant`). Its
 * interaction route signs in the account named by the `account` query parameter and grants what the
 * consent prompt asks, so that a test drives the sign-in without a page.
 */
export function createProviderInstance(options: ProviderInstanceOptions): ProviderInstance {
  const mountPath = options.mountPath ?? '';
  const signingKey = options.signingKey ?? rsaSigningKey();
  const accounts = new Map(options.accounts.map((account) => [account.id, account]));
  const provider = new Provider(options.issuer, {
    adapter: memoryAdapter(),
    clients: options.clients.map((client) => ({
      client_id: client.clientId,
      client_secret: client.clientSecret,
      redirect_uris: [...client.redirectUris],
      token_endpoint_auth_method: client.authMethod ?? 'client_secret_post',
      grant_types:
        options.refreshTokens === undefined
          ? ['authorization_code']
          : ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    })),
    jwks: { keys: [signingKey as ProviderJwk] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    scopes: ['openid', 'offline_access', ...(options.extraScopes ?? [])],
    rotateRefreshToken: () => options.refreshTokens === 'rotate',
    claims: {
      openid: ['sub', ...(options.openidClaims ?? [])],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name', 'preferred_username'],
    },
    conformIdTokenClaims: options.claimsInIdToken === false,
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: true },
      revocation: { enabled: true },
    },
    interactions: { url: (_ctx, interaction) => `${mountPath}/interaction/${interaction.uid}` },
    clientBasedCORS: () => false,
    ttl: {
      AccessToken: options.accessTokenTtlSeconds ?? 3600,
      AuthorizationCode: 600,
      Grant: 3600,
      IdToken: 3600,
      Interaction: 600,
      Session: 3600,
      RefreshToken: 14 * 24 * 3600,
    },
    findAccount: (_ctx, sub) => {
      const account = accounts.get(sub);
      if (account === undefined) return undefined;
      return { accountId: sub, claims: () => ({ ...claimsOf(account), sub }) };
    },
  });

  const callback = provider.callback();
  return {
    provider,
    signingKey,
    handle(request, response) {
      const url = request.url ?? '/';
      const path = url.slice(mountPath.length);
      if (path.startsWith('/interaction/')) {
        finishInteraction(provider, request, response).catch((error: unknown) => {
          response.statusCode = 500;
          response.end(String(error));
        });
        return;
      }
      // Mounted below a path: oidc-provider reads the mount from originalUrl against url.
      Object.assign(request, { originalUrl: url, url: path === '' ? '/' : path });
      void callback(request, response);
    },
  };
}

function claimsOf(account: PeerAccount): Record<string, unknown> {
  const claims: Record<string, unknown> = { ...account.extra };
  if (account.email !== undefined) claims.email = account.email;
  if (account.emailVerified !== undefined) claims.email_verified = account.emailVerified;
  if (account.name !== undefined) claims.name = account.name;
  if (account.givenName !== undefined) claims.given_name = account.givenName;
  if (account.familyName !== undefined) claims.family_name = account.familyName;
  if (account.preferredUsername !== undefined) claims.preferred_username = account.preferredUsername;
  return claims;
}

/**
 * Signs in the account of the `account` query parameter, or grants what the consent prompt lists. As a
 * user at a consent screen can: `deny=1` refuses (`access_denied`), `withhold` (space-separated) unticks
 * scopes (Google's granular consent).
 */
async function finishInteraction(provider: Provider, request: IncomingMessage, response: ServerResponse) {
  const details = await provider.interactionDetails(request, response);
  const query = new URL(request.url ?? '/', 'http://peer').searchParams;
  if (query.get('deny') === '1') {
    await provider.interactionFinished(request, response, {
      error: 'access_denied',
      error_description: 'The user refused.',
    });
    return;
  }
  if (details.prompt.name === 'login') {
    const accountId = query.get('account');
    if (accountId === null) {
      response.statusCode = 200;
      response.setHeader('content-type', 'text/html');
      response.end('<!doctype html><title>Sign in</title><form method="get"><input name="account"></form>');
      return;
    }
    await provider.interactionFinished(request, response, { login: { accountId } });
    return;
  }
  const accountId = details.session?.accountId;
  const clientId = details.params.client_id;
  if (typeof accountId !== 'string' || typeof clientId !== 'string')
    throw new Error('no session to consent for');
  const grant =
    details.grantId === undefined
      ? new provider.Grant({ accountId, clientId })
      : await provider.Grant.find(details.grantId);
  if (grant === undefined) throw new Error('grant not found');
  const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
  const withheld = new Set((query.get('withhold') ?? '').split(' '));
  const granted = missing.missingOIDCScope?.filter((scope) => !withheld.has(scope));
  if (granted !== undefined) grant.addOIDCScope(granted.join(' '));
  const refused = missing.missingOIDCScope?.filter((scope) => withheld.has(scope));
  // Refused, not just left out: the provider then issues the code without it instead of asking again.
  if (refused !== undefined && refused.length > 0) grant.rejectOIDCScope(refused.join(' '));
  if (missing.missingOIDCClaims !== undefined) grant.addOIDCClaims(missing.missingOIDCClaims);
  await provider.interactionFinished(request, response, { consent: { grantId: await grant.save() } });
}

interface Stored {
  payload: AdapterPayload;
  readonly expiresAt: number | undefined;
}

/** Storage of one instance (oidc-provider's own memory adapter is shared by every instance of a process). */
function memoryAdapter(): AdapterFactory {
  const store = new Map<string, Stored>();
  const live = (key: string): Stored | undefined => {
    const stored = store.get(key);
    if (stored?.expiresAt !== undefined && stored.expiresAt <= Date.now()) {
      store.delete(key);
      return undefined;
    }
    return stored;
  };
  return (name) => ({
    upsert: async (id, payload, expiresIn) => {
      const expiresAt = typeof expiresIn === 'number' ? Date.now() + expiresIn * 1000 : undefined;
      store.set(`${name}:${id}`, { payload: structuredClone(payload), expiresAt });
    },
    find: async (id) => live(`${name}:${id}`)?.payload,
    findByUid: async (uid) =>
      [...store.keys()]
        .filter((key) => key.startsWith(`${name}:`))
        .map((key) => live(key)?.payload)
        .find((payload) => payload?.uid === uid),
    findByUserCode: async (userCode) =>
      [...store.keys()]
        .filter((key) => key.startsWith(`${name}:`))
        .map((key) => live(key)?.payload)
        .find((payload) => payload?.userCode === userCode),
    consume: async (id) => {
      const stored = live(`${name}:${id}`);
      if (stored !== undefined)
        stored.payload = { ...stored.payload, consumed: Math.floor(Date.now() / 1000) };
    },
    destroy: async (id) => {
      store.delete(`${name}:${id}`);
    },
    revokeByGrantId: async (grantId) => {
      for (const [key, stored] of store) if (stored.payload.grantId === grantId) store.delete(key);
    },
  });
}

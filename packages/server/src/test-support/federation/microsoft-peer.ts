import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  readBody,
  sendJson,
  signInAtOidcProvider,
  startLoopbackServer,
  type ConsentChoices,
  type LoopbackServer,
} from './loopback-server.js';
import {
  createProviderInstance,
  publicJwk,
  rsaSigningKey,
  type PeerAccount,
  type PeerClient,
  type ProviderInstance,
} from './oidc-provider-instance.js';
import type { TestUserAgent } from './user-agent.js';

/** A tenant of the Microsoft-shaped provider: its id (a GUID) and its users. */
export interface PeerTenant {
  readonly id: string;
  readonly accounts: readonly PeerAccount[];
  /** The `tid` its tokens carry; its own id unless a test makes a tenant that lies about it. */
  readonly tidClaim?: string;
}

export interface MicrosoftPeerOptions {
  readonly clients: readonly PeerClient[];
  readonly tenants: readonly PeerTenant[];
  /** Scopes known besides the OpenID ones (Graph's `Calendars.ReadWrite`…), granted at consent. */
  readonly extraScopes?: readonly string[];
  /** Refresh tokens for `offline_access`, a new one at every refresh as at Microsoft. Default none. */
  readonly refreshTokens?: boolean;
  /** How long access tokens live, in seconds (default 3600). */
  readonly accessTokenTtlSeconds?: number;
}

/** A Microsoft-shaped identity platform (v2.0) on loopback. */
export interface MicrosoftPeer {
  /** `http://127.0.0.1:<port>`, standing for https://login.microsoftonline.com. */
  readonly origin: string;
  /** The discovery URL with `{tenant}`, as a Microsoft connection's discoveryUrl override takes it. */
  readonly discoveryUrlTemplate: string;
  /** `{origin}/{tenantid}/v2.0`: the issuer of each tenant, and of the multi-tenant documents. */
  readonly issuerTemplate: string;
  issuerOf(tenantId: string): string;
  readonly server: LoopbackServer;
  /**
   * Follows the authorization URL signed in as `accountId` (at the multi-tenant endpoints, the account's
   * own tenant answers, as at Microsoft); answers the callback URL.
   */
  signIn(
    authorizationUrl: string | URL,
    accountId: string,
    agent?: TestUserAgent,
    choices?: ConsentChoices,
  ): Promise<URL>;
  close(): Promise<void>;
}

const MULTI_TENANT = new Set(['common', 'organizations', 'consumers']);

/**
 * Microsoft's identity platform as Svc meets it: one node-oidc-provider per tenant at `/{tenantid}/v2.0`
 * (issuer `…/{tenantid}/v2.0`, ID tokens with `tid`, emails without `email_verified`), all signing with
 * one key as Microsoft's tenants do, and the multi-tenant `common`, `organizations` and `consumers`
 * endpoints: a discovery document whose issuer is `…/{tenantid}/v2.0`, an authorization endpoint that
 * sends the user to their own tenant, and token and UserInfo endpoints that pass each request on to the
 * tenant that issued the code (known by its PKCE challenge) or the token.
 */
export async function startMicrosoftPeer(options: MicrosoftPeerOptions): Promise<MicrosoftPeer> {
  const server = await startLoopbackServer();
  const origin = server.origin;
  const signingKey = rsaSigningKey();
  const tenants = new Map<string, ProviderInstance>();
  const homeTenant = new Map<string, string>();
  for (const tenant of options.tenants) {
    const mountPath = `/${tenant.id}/v2.0`;
    tenants.set(
      tenant.id,
      createProviderInstance({
        issuer: `${origin}${mountPath}`,
        mountPath,
        clients: options.clients,
        accounts: tenant.accounts.map((account) => ({
          ...account,
          extra: { ...account.extra, tid: tenant.tidClaim ?? tenant.id, oid: account.id },
        })),
        signingKey,
        openidClaims: ['tid', 'oid'],
        extraScopes: options.extraScopes,
        refreshTokens: options.refreshTokens === true ? 'rotate' : undefined,
        accessTokenTtlSeconds: options.accessTokenTtlSeconds,
      }),
    );
    for (const account of tenant.accounts) homeTenant.set(account.id, tenant.id);
  }
  // Which tenant holds a code (by its PKCE challenge), an access token or a refresh token, for the
  // multi-tenant endpoints.
  const tenantOfChallenge = new Map<string, string>();
  const tenantOfToken = new Map<string, string>();

  const multiTenantDocument = (name: string) => ({
    issuer: `${origin}/{tenantid}/v2.0`,
    authorization_endpoint: `${origin}/${name}/oauth2/v2.0/authorize`,
    token_endpoint: `${origin}/${name}/oauth2/v2.0/token`,
    jwks_uri: `${origin}/${name}/discovery/v2.0/keys`,
    userinfo_endpoint: `${origin}/${name}/oidc/userinfo`,
    response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
    response_modes_supported: ['query', 'fragment', 'form_post'],
    scopes_supported: ['openid', 'profile', 'email', 'offline_access', ...(options.extraScopes ?? [])],
    subject_types_supported: ['pairwise'],
    id_token_signing_alg_values_supported: ['RS256'],
    token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
    claims_supported: [
      'sub',
      'iss',
      'aud',
      'exp',
      'iat',
      'nonce',
      'name',
      'preferred_username',
      'email',
      'tid',
      'oid',
    ],
  });

  /** Passes a request of a multi-tenant endpoint on to the tenant's own (`body`: a POST's). */
  async function forward(
    request: IncomingMessage,
    response: ServerResponse,
    tenantId: string,
    path: string,
    body?: string,
  ) {
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'content-type', 'accept']) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const answer = await fetch(`${origin}/${tenantId}/v2.0${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers,
      ...(body === undefined ? {} : { body }),
    });
    const text = await answer.text();
    if (path === '/token' && answer.status === 200) {
      const tokens = JSON.parse(text) as { access_token: string; refresh_token?: string };
      tenantOfToken.set(tokens.access_token, tenantId);
      if (tokens.refresh_token !== undefined) tenantOfToken.set(tokens.refresh_token, tenantId);
    }
    response.statusCode = answer.status;
    response.setHeader('content-type', answer.headers.get('content-type') ?? 'application/json');
    response.end(text);
  }

  async function multiTenant(
    request: IncomingMessage,
    response: ServerResponse,
    name: string,
    rest: string,
  ): Promise<void> {
    const url = new URL(request.url ?? '/', origin);
    if (rest === '/v2.0/.well-known/openid-configuration')
      return sendJson(response, 200, multiTenantDocument(name));
    if (rest === '/discovery/v2.0/keys') return sendJson(response, 200, { keys: [publicJwk(signingKey)] });
    if (rest === '/oauth2/v2.0/authorize') {
      const hint = url.searchParams.get('login_hint') ?? '';
      const tenantId = homeTenant.get(hint) ?? options.tenants[0]?.id ?? '';
      const challenge = url.searchParams.get('code_challenge');
      if (challenge !== null) tenantOfChallenge.set(challenge, tenantId);
      response.statusCode = 302;
      response.setHeader('location', `${origin}/${tenantId}/v2.0/auth${url.search}`);
      response.end();
      return;
    }
    if (rest === '/oauth2/v2.0/token' && request.method === 'POST') {
      const body = await readBody(request);
      const form = new URLSearchParams(body);
      const verifier = form.get('code_verifier') ?? '';
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      const tenantId =
        form.get('grant_type') === 'refresh_token'
          ? tenantOfToken.get(form.get('refresh_token') ?? '')
          : tenantOfChallenge.get(challenge);
      if (tenantId === undefined) return sendJson(response, 400, { error: 'invalid_grant' });
      return forward(request, response, tenantId, '/token', body);
    }
    if (rest === '/oidc/userinfo') {
      const token = (request.headers.authorization ?? '').replace(/^Bearer /i, '');
      const tenantId = tenantOfToken.get(token);
      if (tenantId === undefined) return sendJson(response, 401, { error: 'invalid_token' });
      return forward(request, response, tenantId, '/me');
    }
    return sendJson(response, 404, { error: 'not_found' });
  }

  server.serve(async (request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const [, first = '', ...rest] = path.split('/');
    if (MULTI_TENANT.has(first)) return multiTenant(request, response, first, `/${rest.join('/')}`);
    const tenant = tenants.get(first);
    if (tenant !== undefined) {
      offlineAccessAsMicrosoft(request);
      return tenant.handle(request, response);
    }
    return sendJson(response, 404, { error: 'not_found' });
  });

  return {
    origin,
    discoveryUrlTemplate: `${origin}/{tenant}/v2.0/.well-known/openid-configuration`,
    issuerTemplate: `${origin}/{tenantid}/v2.0`,
    issuerOf: (tenantId) => `${origin}/${tenantId}/v2.0`,
    server,
    signIn: (authorizationUrl, accountId, agent, choices) => {
      const url = new URL(authorizationUrl);
      if (MULTI_TENANT.has(url.pathname.split('/')[1] ?? '')) url.searchParams.set('login_hint', accountId);
      return signInAtOidcProvider(url, origin, accountId, agent, choices);
    },
    close: () => server.close(),
  };
}

/**
 * Microsoft issues a refresh token for the `offline_access` scope without `prompt=consent`, which
 * node-oidc-provider requires before it keeps that scope: such an authorization request is read as
 * node-oidc-provider understands it (its consent screen is passed by the test's user agent anyway).
 */
function offlineAccessAsMicrosoft(request: IncomingMessage): void {
  const url = new URL(request.url ?? '/', 'http://peer');
  if (!url.pathname.endsWith('/v2.0/auth') || url.searchParams.has('prompt')) return;
  if (!(url.searchParams.get('scope') ?? '').split(' ').includes('offline_access')) return;
  url.searchParams.set('prompt', 'consent');
  request.url = `${url.pathname}${url.search}`;
}

import { createHash, randomBytes, type KeyObject } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { decodeProtectedHeader, importJWK, jwtVerify, SignJWT, type JWK, type JWTPayload } from 'jose';
import { systemClock, type Clock } from '../../kernel/clock.js';
import { readBody, sendJson, startLoopbackServer, type LoopbackServer } from './loopback-server.js';
import { publicJwk, rsaSigningKey } from './oidc-provider-instance.js';
import { TestUserAgent } from './user-agent.js';

/** A Sign in with Apple services id, with the key its client secrets are signed with. */
export interface AppleClient {
  readonly clientId: string;
  readonly teamId: string;
  readonly keyId: string;
  /** The public half of the key registered at Apple under `keyId`. */
  readonly publicKey: KeyObject;
  readonly redirectUris: readonly string[];
}

export interface AppleAccount {
  readonly id: string;
  readonly email: string;
  /** As Apple sends it, a string (default "true"). */
  readonly emailVerified?: string;
  readonly firstName?: string;
  readonly lastName?: string;
}

export interface ApplePeerOptions {
  readonly clients: readonly AppleClient[];
  readonly accounts: readonly AppleAccount[];
  /** The provider's time: for its ID tokens and for the client secrets it checks. */
  readonly clock?: Clock;
}

/** A client secret as the token endpoint received it, and what it made of it. */
export interface ReceivedClientSecret {
  readonly jwt: string;
  readonly header: Record<string, unknown>;
  readonly claims: JWTPayload;
  readonly accepted: boolean;
}

/** The auto-submitting form Apple answers with `response_mode=form_post`. */
export interface FormPost {
  readonly action: string;
  readonly fields: URLSearchParams;
}

export interface ApplePeer {
  readonly issuer: string;
  readonly discoveryUrl: string;
  readonly server: LoopbackServer;
  readonly clientSecrets: ReceivedClientSecret[];
  /** Signs in as `accountId` and authorizes; answers the form post to the relying party. */
  signIn(authorizationUrl: string | URL, accountId: string): Promise<FormPost>;
  close(): Promise<void>;
}

const AUDIENCE = 'https://appleid.apple.com';
/** Apple refuses client secrets valid for longer than 6 months. */
const MAX_SECRET_LIFETIME_S = 15_777_000;

/**
 * Sign in with Apple as it behaves: a discovery document; `/auth/authorize` requires
 * `response_mode=form_post` when `name` or `email` is asked for and answers an HTML form that posts
 * `code`, `state` and, on the first authorization only, `user` (`{"name":{"firstName","lastName"},
 * "email"}`); `/auth/token` checks the client secret (ES256 with the key registered under its `kid`,
 * `iss` the team id, `sub` the services id, `aud` https://appleid.apple.com, not expired, at most 6
 * months long) and answers an RS256 ID token with `email_verified` and `is_private_email` as strings;
 * codes are single use for 5 minutes; no UserInfo.
 */
export async function startApplePeer(options: ApplePeerOptions): Promise<ApplePeer> {
  const clock = options.clock ?? systemClock;
  const server = await startLoopbackServer();
  const issuer = server.origin;
  const signingKey = rsaSigningKey();
  const privateKey = await importJWK(signingKey as JWK, 'RS256');
  const clients = new Map(options.clients.map((client) => [client.clientId, client]));
  const accounts = new Map(options.accounts.map((account) => [account.id, account]));
  const authorized = new Set<string>();
  const codes = new Map<
    string,
    {
      clientId: string;
      redirectUri: string;
      accountId: string;
      nonce: string | null;
      challenge: string | null;
      expiresAt: number;
    }
  >();
  const clientSecrets: ReceivedClientSecret[] = [];
  const nowSeconds = () => Math.floor(clock.now() / 1000);

  function authorize(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', issuer);
    const query = url.searchParams;
    const client = clients.get(query.get('client_id') ?? '');
    const redirectUri = query.get('redirect_uri') ?? '';
    if (client === undefined || !client.redirectUris.includes(redirectUri))
      return page(response, 400, 'invalid_client');
    if (query.get('response_type') !== 'code') return page(response, 400, 'unsupported_response_type');
    const scopes = (query.get('scope') ?? '').split(' ').filter((scope) => scope !== '');
    if ((scopes.includes('name') || scopes.includes('email')) && query.get('response_mode') !== 'form_post') {
      return page(
        response,
        400,
        'invalid_request: response_mode must be form_post when name or email scope is requested.',
      );
    }
    const accountId = /(?:^|;\s*)myacinfo=([^;]+)/.exec(request.headers.cookie ?? '')?.[1];
    const account = accountId === undefined ? undefined : accounts.get(accountId);
    if (account === undefined) return page(response, 200, 'Sign in with your Apple ID');
    const code = `c${randomBytes(16).toString('hex')}.0.rrzx.${randomBytes(8).toString('hex')}`;
    codes.set(code, {
      clientId: client.clientId,
      redirectUri,
      accountId: account.id,
      nonce: query.get('nonce'),
      challenge: query.get('code_challenge'),
      expiresAt: clock.now() + 5 * 60_000,
    });
    const fields: Record<string, string> = { code };
    const state = query.get('state');
    if (state !== null) fields.state = state;
    if (!authorized.has(`${client.clientId}\n${account.id}`)) {
      authorized.add(`${client.clientId}\n${account.id}`);
      fields.user = JSON.stringify({
        name: { firstName: account.firstName ?? '', lastName: account.lastName ?? '' },
        email: account.email,
      });
    }
    const inputs = Object.entries(fields)
      .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}" />`)
      .join('');
    response.statusCode = 200;
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end(
      `<!DOCTYPE html><html><body onload="document.forms[0].submit()"><form method="post" action="${escapeHtml(redirectUri)}">${inputs}</form></body></html>`,
    );
  }

  async function checkClientSecret(jwt: string, client: AppleClient | undefined): Promise<boolean> {
    let header: Record<string, unknown> = {};
    let claims: JWTPayload = {};
    let accepted = false;
    try {
      header = decodeProtectedHeader(jwt) as Record<string, unknown>;
      if (client !== undefined && header.kid === client.keyId) {
        const verified = await jwtVerify(jwt, client.publicKey, {
          algorithms: ['ES256'],
          issuer: client.teamId,
          subject: client.clientId,
          audience: AUDIENCE,
          requiredClaims: ['iat', 'exp'],
          currentDate: new Date(clock.now()),
        });
        claims = verified.payload;
        accepted = (claims.exp ?? 0) - (claims.iat ?? 0) <= MAX_SECRET_LIFETIME_S;
      }
    } catch {
      accepted = false;
    }
    clientSecrets.push({ jwt, header, claims, accepted });
    return accepted;
  }

  async function token(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const form = new URLSearchParams(await readBody(request));
    const client = clients.get(form.get('client_id') ?? '');
    if (!(await checkClientSecret(form.get('client_secret') ?? '', client)) || client === undefined) {
      return sendJson(response, 400, { error: 'invalid_client' });
    }
    if (form.get('grant_type') !== 'authorization_code')
      return sendJson(response, 400, { error: 'unsupported_grant_type' });
    const code = codes.get(form.get('code') ?? '');
    codes.delete(form.get('code') ?? '');
    const verifier = form.get('code_verifier');
    const pkce =
      code?.challenge === null ||
      (verifier !== null && createHash('sha256').update(verifier).digest('base64url') === code?.challenge);
    if (
      code === undefined ||
      code.clientId !== client.clientId ||
      code.redirectUri !== form.get('redirect_uri') ||
      code.expiresAt <= clock.now() ||
      !pkce
    ) {
      return sendJson(response, 400, { error: 'invalid_grant' });
    }
    const account = accounts.get(code.accountId);
    if (account === undefined) return sendJson(response, 400, { error: 'invalid_grant' });
    const now = nowSeconds();
    const idToken = await new SignJWT({
      email: account.email,
      email_verified: account.emailVerified ?? 'true',
      is_private_email: 'false',
      auth_time: now,
      nonce_supported: true,
      ...(code.nonce === null ? {} : { nonce: code.nonce }),
    })
      .setProtectedHeader({ alg: 'RS256', kid: String(signingKey.kid) })
      .setIssuer(issuer)
      .setAudience(client.clientId)
      .setSubject(account.id)
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(privateKey);
    sendJson(response, 200, {
      access_token: `a${randomBytes(16).toString('hex')}`,
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: `r${randomBytes(16).toString('hex')}`,
      id_token: idToken,
    });
  }

  server.serve(async (request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    if (path === '/.well-known/openid-configuration') {
      return sendJson(response, 200, {
        issuer,
        authorization_endpoint: `${issuer}/auth/authorize`,
        token_endpoint: `${issuer}/auth/token`,
        revocation_endpoint: `${issuer}/auth/revoke`,
        jwks_uri: `${issuer}/auth/keys`,
        response_types_supported: ['code'],
        response_modes_supported: ['query', 'fragment', 'form_post'],
        subject_types_supported: ['pairwise'],
        id_token_signing_alg_values_supported: ['RS256'],
        scopes_supported: ['openid', 'email', 'name'],
        token_endpoint_auth_methods_supported: ['client_secret_post'],
        claims_supported: [
          'aud',
          'email',
          'email_verified',
          'exp',
          'iat',
          'is_private_email',
          'iss',
          'nonce',
          'nonce_supported',
          'real_user_status',
          'sub',
          'transfer_sub',
        ],
      });
    }
    if (path === '/auth/keys') return sendJson(response, 200, { keys: [publicJwk(signingKey)] });
    if (path === '/auth/authorize' && request.method === 'GET') return authorize(request, response);
    if (path === '/auth/token' && request.method === 'POST') return token(request, response);
    sendJson(response, 404, { error: 'not_found' });
  });

  return {
    issuer,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    server,
    clientSecrets,
    async signIn(authorizationUrl, accountId) {
      const agent = new TestUserAgent();
      agent.setCookie(issuer, 'myacinfo', accountId);
      const answer = await agent.request(authorizationUrl);
      const html = await answer.text();
      const action = /<form method="post" action="([^"]*)"/.exec(html)?.[1];
      if (answer.status !== 200 || action === undefined)
        throw new Error(`Apple answered ${answer.status}: ${html.slice(0, 300)}`);
      const fields = new URLSearchParams();
      for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)" \/>/g)) {
        fields.append(match[1] ?? '', unescapeHtml(match[2] ?? ''));
      }
      return { action: unescapeHtml(action), fields };
    },
    close: () => server.close(),
  };
}

function page(response: ServerResponse, status: number, text: string): void {
  response.statusCode = status;
  response.setHeader('content-type', 'text/html; charset=utf-8');
  response.end(`<!DOCTYPE html><title>Sign in with Apple</title><p>${escapeHtml(text)}</p>`);
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function unescapeHtml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

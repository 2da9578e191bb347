import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, sendJson, startLoopbackServer, type LoopbackServer } from './loopback-server.js';
import { TestUserAgent } from './user-agent.js';

/** A GitHub user: `/user` shows `publicEmail` (unverified, as GitHub's profile email is), `/user/emails` the rest. */
export interface GitHubPeerUser {
  readonly id: number;
  readonly login: string;
  readonly name?: string | null;
  readonly publicEmail?: string | null;
  readonly emails: readonly { email: string; primary: boolean; verified: boolean }[];
}

export interface GitHubPeerApp {
  readonly clientId: string;
  readonly clientSecret: string;
  /** The authorization callback URL of the OAuth app. */
  readonly callbackUrl: string;
}

export interface GitHubPeerOptions {
  readonly apps: readonly GitHubPeerApp[];
  readonly users: readonly GitHubPeerUser[];
}

/** A GitHub-shaped OAuth server and API on loopback. */
export interface GitHubPeer {
  readonly origin: string;
  readonly authorizationEndpoint: string;
  readonly tokenEndpoint: string;
  /** `/user`; the emails API is `/user/emails`, as docs/reference/federation.md derives it. */
  readonly userEndpoint: string;
  readonly server: LoopbackServer;
  /** Answer the token endpoint form-encoded even when JSON is asked for (the real API can). */
  formEncodedAlways: boolean;
  /** The `Accept` and `User-Agent` of each token and API request, in order. */
  readonly seen: { path: string; accept: string | undefined; userAgent: string | undefined }[];
  /** Follows the authorization URL signed in as `login` (who authorizes the app); answers the callback URL. */
  signIn(authorizationUrl: string | URL, login: string): Promise<URL>;
  close(): Promise<void>;
}

interface IssuedCode {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly login: string;
  readonly scopes: readonly string[];
  readonly codeChallenge: string | null;
  readonly expiresAt: number;
}

/**
 * GitHub's OAuth apps as they behave: `/login/oauth/authorize` redirects with `code` and `state` once the
 * signed-in user (the `user_session` cookie) authorizes; `/login/oauth/access_token` answers
 * form-encoded unless `Accept: application/json`, scopes comma-separated, errors with status 200
 * (`bad_verification_code`, `incorrect_client_credentials`, `redirect_uri_mismatch`), codes single use
 * for 10 minutes, PKCE S256 checked when a challenge was sent; `/user` and `/user/emails` want a token
 * (`Bearer` or `token`) and a `User-Agent` (403 without one), and the emails API wants `user:email`.
 */
export async function startGitHubPeer(options: GitHubPeerOptions): Promise<GitHubPeer> {
  const server = await startLoopbackServer();
  const origin = server.origin;
  const apps = new Map(options.apps.map((app) => [app.clientId, app]));
  const users = new Map(options.users.map((user) => [user.login, user]));
  const codes = new Map<string, IssuedCode>();
  const tokens = new Map<string, { login: string; scopes: readonly string[] }>();
  const seen: GitHubPeer['seen'] = [];

  function authorize(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', origin);
    const app = apps.get(url.searchParams.get('client_id') ?? '');
    if (app === undefined) return html(response, 404, 'Not Found');
    const redirectUri = url.searchParams.get('redirect_uri') ?? app.callbackUrl;
    if (redirectUri !== app.callbackUrl) {
      return html(response, 200, 'The redirect_uri is not associated with this application.');
    }
    const login = /(?:^|;\s*)user_session=([^;]+)/.exec(request.headers.cookie ?? '')?.[1];
    if (login === undefined || !users.has(login))
      return html(response, 200, '<form>Sign in to GitHub</form>');
    const code = randomBytes(10).toString('hex');
    codes.set(code, {
      clientId: app.clientId,
      redirectUri,
      login,
      scopes: (url.searchParams.get('scope') ?? '').split(/[\s,]+/).filter((scope) => scope !== ''),
      codeChallenge: url.searchParams.get('code_challenge'),
      expiresAt: Date.now() + 10 * 60_000,
    });
    const callback = new URL(redirectUri);
    callback.searchParams.set('code', code);
    const state = url.searchParams.get('state');
    if (state !== null) callback.searchParams.set('state', state);
    response.statusCode = 302;
    response.setHeader('location', callback.href);
    response.end();
  }

  async function accessToken(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const accept = request.headers.accept;
    seen.push({ path: '/login/oauth/access_token', accept, userAgent: request.headers['user-agent'] });
    const body = await readBody(request);
    const type = request.headers['content-type'] ?? '';
    const parameters: Record<string, string> = type.includes('json')
      ? (JSON.parse(body) as Record<string, string>)
      : Object.fromEntries(new URLSearchParams(body));
    const basic = /^Basic (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (basic !== undefined) {
      const [id = '', secret = ''] = Buffer.from(basic, 'base64').toString('utf8').split(':');
      parameters.client_id = decodeURIComponent(id);
      parameters.client_secret = decodeURIComponent(secret);
    }
    const answer = (fields: Record<string, string>) => {
      const json = !peer.formEncodedAlways && (accept ?? '').includes('application/json');
      response.statusCode = 200;
      response.setHeader(
        'content-type',
        json ? 'application/json; charset=utf-8' : 'application/x-www-form-urlencoded; charset=utf-8',
      );
      response.end(json ? JSON.stringify(fields) : new URLSearchParams(fields).toString());
    };
    const app = apps.get(parameters.client_id ?? '');
    if (app === undefined || app.clientSecret !== parameters.client_secret) {
      return answer({
        error: 'incorrect_client_credentials',
        error_description: 'The client_id and/or client_secret passed are incorrect.',
      });
    }
    const code = codes.get(parameters.code ?? '');
    codes.delete(parameters.code ?? '');
    const verifier = parameters.code_verifier;
    const pkceOk =
      code?.codeChallenge === null ||
      (verifier !== undefined &&
        createHash('sha256').update(verifier).digest('base64url') === code?.codeChallenge);
    if (code === undefined || code.clientId !== app.clientId || code.expiresAt <= Date.now() || !pkceOk) {
      return answer({
        error: 'bad_verification_code',
        error_description: 'The code passed is incorrect or expired.',
        error_uri:
          'https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors/#bad-verification-code',
      });
    }
    if (parameters.redirect_uri !== undefined && parameters.redirect_uri !== code.redirectUri) {
      return answer({
        error: 'redirect_uri_mismatch',
        error_description: 'The redirect_uri MUST match the registered callback URL for this application.',
      });
    }
    const token = `gho_${randomBytes(18).toString('hex')}`;
    tokens.set(token, { login: code.login, scopes: code.scopes });
    answer({ access_token: token, scope: code.scopes.join(','), token_type: 'bearer' });
  }

  function api(request: IncomingMessage, response: ServerResponse, path: string): void {
    seen.push({ path, accept: request.headers.accept, userAgent: request.headers['user-agent'] });
    if (request.headers['user-agent'] === undefined || request.headers['user-agent'] === '') {
      response.statusCode = 403;
      response.setHeader('content-type', 'text/plain');
      response.end(
        'Request forbidden by administrative rules. Please make sure your request has a User-Agent header (https://docs.github.com/en/rest/overview/resources-in-the-rest-api#user-agent-required). Check https://developer.github.com for other possible causes.',
      );
      return;
    }
    const token = /^(?:Bearer|token) (.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
    const grant = tokens.get(token);
    const user = grant === undefined ? undefined : users.get(grant.login);
    if (grant === undefined || user === undefined) {
      return sendJson(response, 401, {
        message: 'Bad credentials',
        documentation_url: 'https://docs.github.com/rest',
      });
    }
    if (path === '/user') {
      return sendJson(response, 200, {
        login: user.login,
        id: user.id,
        node_id: `U_${user.id}`,
        type: 'User',
        name: user.name ?? null,
        email: user.publicEmail ?? null,
      });
    }
    if (!grant.scopes.includes('user:email') && !grant.scopes.includes('user')) {
      return sendJson(response, 404, {
        message: 'Not Found',
        documentation_url: 'https://docs.github.com/rest',
      });
    }
    sendJson(
      response,
      200,
      user.emails.map((email) => ({ ...email, visibility: email.primary ? 'private' : null })),
    );
  }

  server.serve(async (request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    if (path === '/login/oauth/authorize' && request.method === 'GET') return authorize(request, response);
    if (path === '/login/oauth/access_token' && request.method === 'POST')
      return accessToken(request, response);
    if ((path === '/user' || path === '/user/emails') && request.method === 'GET')
      return api(request, response, path);
    sendJson(response, 404, { message: 'Not Found' });
  });

  const peer: GitHubPeer = {
    origin,
    authorizationEndpoint: `${origin}/login/oauth/authorize`,
    tokenEndpoint: `${origin}/login/oauth/access_token`,
    userEndpoint: `${origin}/user`,
    server,
    formEncodedAlways: false,
    seen,
    async signIn(authorizationUrl, login) {
      const agent = new TestUserAgent();
      agent.setCookie(origin, 'user_session', login);
      const result = await agent.follow(authorizationUrl, origin);
      if ('location' in result) return result.location;
      throw new Error(`GitHub stopped at ${result.response.status}: ${await result.response.text()}`);
    },
    close: () => server.close(),
  };
  return peer;
}

function html(response: ServerResponse, status: number, body: string): void {
  response.statusCode = status;
  response.setHeader('content-type', 'text/html; charset=utf-8');
  response.end(`<!doctype html><title>GitHub</title>${body}`);
}

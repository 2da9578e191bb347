import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomIds } from '../../kernel/ids.js';
import { testConnection } from '../../test-support/federation/connections.js';
import { startGitHubPeer, type GitHubPeer } from '../../test-support/federation/github-peer.js';
import { FakeClock } from '../../test-support/fake-clock.js';
import { OidcRelyingParty } from './relying-party.js';
import { OidcRelyingPartyError } from './rp-errors.js';

const REDIRECT = 'http://127.0.0.1:9/svc/auth/oidc/callback';
const APP = {
  clientId: 'Iv1.svc0123456789',
  clientSecret: 'gh-secret-0123456789abcdef',
  callbackUrl: REDIRECT,
};

let github: GitHubPeer;

beforeAll(async () => {
  github = await startGitHubPeer({
    apps: [APP],
    users: [
      {
        id: 583231,
        login: 'octocat',
        name: 'The Octocat',
        publicEmail: 'octocat@github.example',
        emails: [
          { email: 'octo-old@example.com', primary: false, verified: true },
          { email: 'octocat@example.com', primary: true, verified: true },
        ],
      },
      {
        id: 9001,
        login: 'newbie',
        name: null,
        // The public profile email is not verified by GitHub: it must never be taken.
        publicEmail: 'victim@example.com',
        emails: [
          { email: 'newbie@example.com', primary: true, verified: false },
          { email: 'other@example.com', primary: false, verified: true },
        ],
      },
    ],
  });
});
afterAll(() => github.close());
beforeEach(() => {
  github.formEncodedAlways = false;
  github.seen.length = 0;
});

const rp = () =>
  new OidcRelyingParty({
    clock: new FakeClock(Date.now()),
    ids: randomIds,
    allowHttpLoopback: true,
    timeoutMs: 2000,
  });

const connection = () =>
  testConnection(
    {
      providerType: 'GitHub',
      clientId: APP.clientId,
      allowedCallbackUris: [REDIRECT],
      authorizationEndpoint: github.authorizationEndpoint,
      tokenEndpoint: github.tokenEndpoint,
      userInfoEndpoint: github.userEndpoint,
    },
    { clientSecret: APP.clientSecret },
  );

async function signIn(party: OidcRelyingParty, login: string) {
  const conn = connection();
  const start = await party.start(conn, { redirectUri: REDIRECT });
  const callback = await github.signIn(start.authorizationUrl, login);
  const checks = {
    callback,
    expectedState: start.state,
    expectedNonce: start.nonce,
    codeVerifier: start.codeVerifier ?? '',
    redirectUri: REDIRECT,
  };
  return { identity: await party.complete(conn, checks), retry: () => party.complete(conn, checks) };
}

async function refusal(promise: Promise<unknown>): Promise<OidcRelyingPartyError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OidcRelyingPartyError);
  return error as OidcRelyingPartyError;
}

describe('GitHub (OAuth profile, no ID token)', () => {
  it('sends state, nonce and PKCE S256 with the default scopes', async () => {
    const start = await rp().start(connection(), { redirectUri: REDIRECT, loginHint: 'octocat@example.com' });
    const url = new URL(start.authorizationUrl);
    expect(url.origin + url.pathname).toBe(github.authorizationEndpoint);
    expect(url.searchParams.get('scope')).toBe('read:user user:email');
    expect(url.searchParams.get('state')).toBe(start.state);
    expect(url.searchParams.get('nonce')).toBe(start.nonce);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.has('login_hint')).toBe(false);
  });

  it('reads the user and the primary verified email, with a User-Agent and GitHub’s media type', async () => {
    const { identity } = await signIn(rp(), 'octocat');
    expect(identity).toMatchObject({
      subject: '583231',
      email: 'octocat@example.com',
      emailVerified: true,
      displayName: 'The Octocat',
      preferredUsername: 'octocat',
      firstName: null,
      lastName: null,
    });
    expect(github.seen.map((request) => request.path)).toEqual([
      '/login/oauth/access_token',
      '/user',
      '/user/emails',
    ]);
    expect(github.seen[0]?.accept).toBe('application/json');
    for (const request of github.seen) expect(request.userAgent).toMatch(/^Svc\//);
    expect(github.seen[1]?.accept).toBe('application/vnd.github+json');
  });

  it('takes a form-encoded token answer with comma-separated scopes', async () => {
    github.formEncodedAlways = true;
    const { identity } = await signIn(rp(), 'octocat');
    expect(identity.subject).toBe('583231');
  });

  it('gives no email without a primary verified one, never the public profile email', async () => {
    const { identity } = await signIn(rp(), 'newbie');
    expect(identity).toMatchObject({ subject: '9001', email: null, emailVerified: false, displayName: null });
    expect(JSON.stringify(identity.rawClaims)).not.toContain('victim@example.com');
  });

  it('surfaces a code redeemed twice as the provider’s error (answered with 200, form-encoded)', async () => {
    github.formEncodedAlways = true;
    const { retry } = await signIn(rp(), 'octocat');
    const error = await refusal(retry());
    expect(error).toMatchObject({
      code: 'provider_error',
      providerError: 'bad_verification_code',
      status: 400,
    });
    expect(error.message).not.toContain('gho_');
  });

  it('refuses a wrong client secret as the provider’s error', async () => {
    const party = rp();
    const conn = testConnection(
      {
        providerType: 'GitHub',
        clientId: APP.clientId,
        allowedCallbackUris: [REDIRECT],
        authorizationEndpoint: github.authorizationEndpoint,
        tokenEndpoint: github.tokenEndpoint,
        userInfoEndpoint: github.userEndpoint,
      },
      { clientSecret: 'not-the-secret' },
    );
    const start = await party.start(conn, { redirectUri: REDIRECT });
    const callback = await github.signIn(start.authorizationUrl, 'octocat');
    const error = await refusal(
      party.complete(conn, {
        callback,
        expectedState: start.state,
        expectedNonce: start.nonce,
        codeVerifier: start.codeVerifier ?? '',
        redirectUri: REDIRECT,
      }),
    );
    expect(error).toMatchObject({ code: 'provider_error', providerError: 'incorrect_client_credentials' });
  });

  it('has a peer that refuses API requests without a User-Agent, as GitHub does', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(
        github.userEndpoint,
        { headers: { authorization: 'Bearer x' } },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on('error', reject);
      request.end();
    });
    expect(status).toBe(403);
  });
});

import type { InjectOptions } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SvcOptions } from '../../config/options.js';
import { describeAboveStorage } from '../../test-support/databases.js';
import { form, oauthGiven, REDIRECT_URI, type OAuthGiven } from '../../test-support/oauth-http.js';
import { createTestSvc, type TestSvc } from '../../test-support/test-svc.js';

const USERINFO = '/svc/auth/userinfo';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const INVALID_TOKEN =
  'Bearer error="invalid_token", error_description="The access token is invalid, expired or revoked, or its session has ended."';
const INSUFFICIENT_SCOPE =
  'Bearer error="insufficient_scope", error_description="The access token was not granted the openid scope."';

interface Tokens {
  access_token: string;
  refresh_token: string;
}

describeAboveStorage('GET and POST /userinfo', (kind) => {
  let t: TestSvc;
  let given: OAuthGiven;
  beforeEach(async () => {
    t = await createTestSvc(kind);
    given = await oauthGiven(t);
  });
  afterEach(async () => {
    await given.app.close();
    await t.close();
  });

  /** A user signed in through a code at a public client, with the granted `scopes`. */
  let signIns = 0;
  async function signIn(scopes: string[], options: { organization?: boolean } = {}) {
    signIns += 1;
    const user = await given.user({ displayName: 'Ann Example', email: `Ann${signIns}@Example.com` });
    const organizationId = options.organization === true ? await given.organizationOf(user.id) : null;
    const client = await given.client();
    const code = await given.code({ clientId: client.clientId, userId: user.id, scopes, organizationId });
    const response = await given.token({
      grant_type: 'authorization_code',
      code: code.code,
      code_verifier: code.verifier,
      redirect_uri: REDIRECT_URI,
      client_id: client.clientId,
    });
    expect(response.statusCode).toBe(200);
    return { user, organizationId, client, tokens: response.json<Tokens>() };
  }

  const get = (token?: string, headers: Record<string, string> = {}) =>
    given.inject({
      method: 'GET',
      url: USERINFO,
      headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), ...headers },
    });

  const expectChallenge = (
    response: Awaited<ReturnType<typeof get>>,
    status: number,
    challenge: string,
  ): void => {
    expect(response.statusCode).toBe(status);
    expect(response.headers['www-authenticate']).toBe(challenge);
    expect(response.headers['cache-control']).toBe('no-store');
  };

  it('openid alone releases sub and amr, never cached', async () => {
    const { user, tokens } = await signIn(['openid']);
    const response = await get(tokens.access_token);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers.pragma).toBe('no-cache');
    expect(response.json()).toEqual({ sub: user.id, amr: ['pwd'] });
  });

  it('profile adds name, preferred_username, updated_at; email adds email, email_verified', async () => {
    const profile = await signIn(['openid', 'profile']);
    const claims = (await get(profile.tokens.access_token)).json<Record<string, unknown>>();
    expect(Object.keys(claims).sort()).toEqual(['amr', 'name', 'preferred_username', 'sub', 'updated_at']);
    expect(claims).toMatchObject({ name: 'Ann Example', preferred_username: profile.user.email });
    // The user was created at the fake clock's now, which has not moved.
    expect(claims.updated_at).toBe(Math.floor(t.clock.now() / 1000));

    const email = await signIn(['openid', 'email']);
    expect((await get(email.tokens.access_token)).json()).toEqual({
      sub: email.user.id,
      amr: ['pwd'],
      email: email.user.email,
      email_verified: false,
    });
  });

  it('an organization-scoped session adds org_id', async () => {
    const { organizationId, tokens } = await signIn(['openid'], { organization: true });
    expect((await get(tokens.access_token)).json()).toMatchObject({ org_id: organizationId });
  });

  it('no token: 401 with the bare Bearer challenge and no error information', async () => {
    const response = await get();
    expectChallenge(response, 401, 'Bearer');
    expect(response.body).toBe('');
    // Browser apps may call userinfo and read the challenge.
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-expose-headers']).toBe('www-authenticate');
    const preflight = await given.inject({ method: 'OPTIONS', url: USERINFO });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toBe('GET, POST');
    expect(preflight.headers['access-control-allow-headers']).toBe('authorization, content-type');
    // Another scheme carries no bearer token.
    expectChallenge(await get(undefined, { authorization: 'Basic YTpi' }), 401, 'Bearer');
    // RFC 6750 §2.3 query tokens are not a supported method (docs/reference/tokens-and-sessions.md "Userinfo": header, or form on POST).
    const query = await given.inject({ method: 'GET', url: `${USERINFO}?access_token=abc` });
    expectChallenge(query, 401, 'Bearer');
  });

  it('a bad, tampered or expired token: 401 invalid_token with a description', async () => {
    const { tokens } = await signIn(['openid']);
    const bad = await get('not-a-jwt');
    expectChallenge(bad, 401, INVALID_TOKEN);
    expect(bad.json()).toMatchObject({ error: 'invalid_token' });

    const [header, payload, signature] = tokens.access_token.split('.');
    const tampered = `${header}.${payload}.${signature?.slice(0, -4)}AAAA`;
    expectChallenge(await get(tampered), 401, INVALID_TOKEN);

    expect((await get(tokens.access_token)).statusCode).toBe(200);
    t.clock.advance(16 * 60 * 1000 + 60 * 1000);
    expectChallenge(await get(tokens.access_token), 401, INVALID_TOKEN);
  });

  it('a revoked session stops claim release at once', async () => {
    const { tokens } = await signIn(['openid']);
    expect((await get(tokens.access_token)).statusCode).toBe(200);
    await t.svc.auth.logoutAsync({ refreshToken: tokens.refresh_token });
    expectChallenge(await get(tokens.access_token), 401, INVALID_TOKEN);
  });

  it('a session past its idle deadline stops claim release, while the access token is still unexpired', async () => {
    await t.svc.admin.updateSecuritySettingsAsync({
      refreshTokenLifetimeMinutes: 600,
      sessionIdleTimeoutMinutes: 5,
      sessionAbsoluteLifetimeMinutes: 1440,
      signingKeyRotationIntervalDays: 90,
      signingKeyGraceWindowDays: 7,
      signingKeyRetiredCleanupDays: 30,
    });
    const { tokens } = await signIn(['openid']);
    t.clock.advance(4 * 60 * 1000);
    expect((await get(tokens.access_token)).statusCode).toBe(200);
    t.clock.advance(2 * 60 * 1000);
    expectChallenge(await get(tokens.access_token), 401, INVALID_TOKEN);
    // The same token still passes the in-process validation, which "does not check IdleExpiresAt".
    expect(await t.svc.auth.validateAccessTokenWithoutAudienceAsync(tokens.access_token)).not.toBeNull();
  });

  it('a live token whose grant lacks openid: 403 insufficient_scope', async () => {
    const { tokens } = await signIn(['profile', 'email']);
    const response = await get(tokens.access_token);
    expectChallenge(response, 403, INSUFFICIENT_SCOPE);
    expect(response.json()).toMatchObject({ error: 'insufficient_scope' });
  });

  it('POST takes the token from the header or the access_token form field, not both', async () => {
    const { user, tokens } = await signIn(['openid']);
    const post = (options: InjectOptions) => given.inject({ method: 'POST', url: USERINFO, ...options });

    const viaForm = await post({ headers: FORM, payload: form({ access_token: tokens.access_token }) });
    expect(viaForm.statusCode).toBe(200);
    expect(viaForm.json()).toMatchObject({ sub: user.id });
    const viaHeader = await post({ headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(viaHeader.json()).toMatchObject({ sub: user.id });

    const both = await post({
      headers: { ...FORM, authorization: `Bearer ${tokens.access_token}` },
      payload: form({ access_token: tokens.access_token }),
    });
    expect(both.statusCode).toBe(400);
    expect(both.headers['www-authenticate']).toMatch(/^Bearer error="invalid_request", error_description="/);
    expect(both.json()).toMatchObject({ error: 'invalid_request' });

    const twice = await post({
      headers: FORM,
      payload: form({ access_token: [tokens.access_token, tokens.access_token] }),
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toMatchObject({ error: 'invalid_request' });

    const json = await post({
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.access_token}` },
      payload: JSON.stringify({ access_token: tokens.access_token }),
    });
    expect(json.statusCode).toBe(400);
    expect(json.headers['www-authenticate']).toMatch(/^Bearer error="invalid_request"/);

    expectChallenge(await post({ headers: FORM, payload: form({ access_token: '' }) }), 401, 'Bearer');
  });

  it('a Bearer header that is not one token is 400 invalid_request', async () => {
    for (const authorization of ['Bearer', 'Bearer ', 'Bearer a b', 'Bearer "quoted"', 'Bearer a=b']) {
      const response = await get(undefined, { authorization });
      expect(response.statusCode, authorization).toBe(400);
      expect(response.headers['www-authenticate']).toMatch(/^Bearer error="invalid_request"/);
    }
  });
});

describe('userinfo is mapped only while OpenID provider mode and EnableUserInfoEndpoint are on', () => {
  let t: TestSvc | undefined;
  let given: OAuthGiven | undefined;
  afterEach(async () => {
    await given?.app.close();
    await t?.close();
  });

  it.each<[string, NonNullable<SvcOptions['openId']>]>([
    ['EnableUserInfoEndpoint off', { enableUserInfoEndpoint: false }],
    ['OpenID provider mode off', { enabled: false }],
  ])('%s: 404 and not in discovery', async (_name, openId) => {
    t = await createTestSvc('sqlite', { openId });
    given = await oauthGiven(t);
    expect((await given.inject({ method: 'GET', url: USERINFO })).statusCode).toBe(404);
    const metadata = await given.inject({
      method: 'GET',
      url: '/svc/auth/.well-known/oauth-authorization-server',
    });
    expect(metadata.json()).not.toHaveProperty('userinfo_endpoint');
    expect(metadata.json()).toHaveProperty('token_endpoint');
  });
});

describe('userinfo: malformed input is a 4xx, never a 5xx', () => {
  let t: TestSvc;
  let given: OAuthGiven;
  beforeEach(async () => {
    t = await createTestSvc();
    given = await oauthGiven(t);
  });
  afterEach(async () => {
    await given.app.close();
    await t.close();
  });

  const cases: [string, InjectOptions][] = [
    ['a huge bearer token', { method: 'GET', headers: { authorization: `Bearer ${'a'.repeat(60_000)}` } }],
    ['a JWT with alg none', { method: 'GET', headers: { authorization: `Bearer ${unsignedJwt()}` } }],
    ['a JWT-shaped token of garbage', { method: 'GET', headers: { authorization: 'Bearer a.b.c' } }],
    ['non-ASCII in the header', { method: 'GET', headers: { authorization: 'Bearer t\u00e9st' } }],
    ['Bearer with a comma list', { method: 'GET', headers: { authorization: 'Bearer a, Bearer b' } }],
    [
      'GET with a JSON body',
      { method: 'GET', headers: { 'content-type': 'application/json' }, payload: '{' },
    ],
    ['POST with a body but no Content-Type', { method: 'POST', payload: 'access_token=abc' }],
    ['POST with text/plain', { method: 'POST', headers: { 'content-type': 'text/plain' }, payload: 'x' }],
    ['POST with broken percent-encoding', { method: 'POST', headers: FORM, payload: 'access_token=%ZZ%' }],
    [
      'POST with a huge form token',
      { method: 'POST', headers: FORM, payload: `access_token=${'a'.repeat(100_000)}` },
    ],
    [
      'POST over the body limit',
      { method: 'POST', headers: FORM, payload: `access_token=${'a'.repeat(300 * 1024)}` },
    ],
    ['POST with __proto__', { method: 'POST', headers: FORM, payload: '__proto__=x&access_token=y' }],
    ['PUT is not a route', { method: 'PUT', headers: FORM, payload: 'access_token=y' }],
  ];

  it.each(cases)('%s', async (_name, options) => {
    const response = await given.inject({ url: USERINFO, ...options });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.headers['cache-control']).toBe('no-store');
  });
});

function unsignedJwt(): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'at+jwt' })}.${part({ sub: 'usr_1', sid: 'ses_1', aud: 'x', exp: 9e9 })}.`;
}

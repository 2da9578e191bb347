import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pkcePair, authorizeQuery } from '../test-support/authorize-params.js';
import { basicAuth, oauthGiven, REDIRECT_URI, type OAuthGiven } from '../test-support/oauth-http.js';
import { startTcpProxy, type TcpProxy } from '../test-support/tcp-proxy.js';
import { createTestSvc, type TestSvc } from '../test-support/test-svc.js';

/**
 * A node whose database goes away (every connection reset and refused) or freezes (connections open,
 * nothing answers): every surface answers 503 `temporarily_unavailable` with Retry-After, within the
 * timeouts, never 500; liveness holds, readiness says why not; the cached JWKS keeps being served; and
 * when the database is back, the same node serves again with nothing lost.
 */
const skipReason = inject('postgresSkipReason');
const onPostgres = skipReason === '' ? describe : describe.skip;

onPostgres(
  `a database outage, seen from every surface${skipReason === '' ? '' : ` (skipped: ${skipReason})`}`,
  () => {
    let proxy: TcpProxy;
    let t: TestSvc;
    let given: OAuthGiven;
    let clientId: string;
    let secret: string;
    let email: string;
    let tokens: { access_token: string; refresh_token: string };

    beforeAll(async () => {
      const admin = new URL(inject('postgresAdminUrl'));
      proxy = await startTcpProxy(admin.hostname, Number(admin.port));
      t = await createTestSvc(
        'postgres',
        {
          databaseTimeouts: { connectMs: 300, statementMs: 300, idleInTransactionMs: 1_000 },
          signingKeyCacheMs: 1_000,
        },
        { databaseUrl: (url) => proxy.via(url) },
      );
      given = await oauthGiven(t);
      const user = await given.user();
      email = user.email;
      const client = await given.client({ tokenEndpointAuthMethod: 'client_secret_basic' });
      clientId = client.clientId;
      secret = client.clientSecret ?? '';
      const { code, verifier } = await given.code({
        clientId,
        userId: user.id,
        scopes: ['openid', 'profile', 'email', 'offline_access'],
      });
      const issued = await given.token(
        { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier },
        { authorization: basicAuth(clientId, secret) },
      );
      expect(issued.statusCode).toBe(200);
      tokens = issued.json();
    }, 30_000);
    afterAll(async () => {
      proxy?.heal();
      await t?.close();
      await proxy?.close();
    });

    const base = () => t.svc.config.authBase;
    const refresh = () =>
      given.token(
        { grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
        { authorization: basicAuth(clientId, secret) },
      );
    const userinfo = () =>
      given.inject({
        method: 'GET',
        url: `${base()}/userinfo`,
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
    const operatorList = () =>
      given.inject({ method: 'GET', url: `${t.svc.config.adminAuthBase}/api/users`, headers: t.operator });
    const headlessStart = () =>
      given.inject({
        method: 'POST',
        url: `${t.svc.config.headless.basePath}/start`,
        payload: {
          responseType: 'code',
          clientId,
          redirectUri: REDIRECT_URI,
          codeChallenge: pkcePair().challenge,
          codeChallengeMethod: 'S256',
        },
      });
    const directLogin = () =>
      given.inject({
        method: 'POST',
        url: `${base()}/password/login`,
        headers: { authorization: basicAuth(clientId, secret) },
        payload: { email, password: 'correct horse battery staple', clientId },
      });
    const hostedAuthorize = () =>
      given.inject({
        method: 'GET',
        url: `${base()}/authorize?${new URLSearchParams(authorizeQuery(clientId)).toString()}`,
      });
    const health = (which: 'live' | 'ready') =>
      given.inject({ method: 'GET', url: `${t.svc.config.dashboardBase}/health/${which}` });
    const jwks = () => given.inject({ method: 'GET', url: `${base()}/.well-known/jwks.json` });
    const discovery = () =>
      given.inject({ method: 'GET', url: `${base()}/.well-known/openid-configuration` });

    const expectUnavailableJson = (response: LightMyRequestResponse, messageField: string) => {
      expect(response.statusCode, response.body).toBe(503);
      expect(response.headers['retry-after']).toBe('2');
      expect(response.json()).toMatchObject({
        error: 'temporarily_unavailable',
        [messageField]: 'The service is temporarily unavailable. Try again in a moment.',
      });
    };

    for (const fault of ['drop', 'freeze'] as const) {
      it(`${fault === 'drop' ? 'a database that went away' : 'a frozen database'}: 503 with Retry-After everywhere, then back without a restart`, async () => {
        const publishedBefore = (await jwks()).body;
        const discoveryBefore = (await discovery()).body;
        proxy[fault]();
        try {
          expectUnavailableJson(await refresh(), 'error_description');
          expectUnavailableJson(await userinfo(), 'error_description');
          expectUnavailableJson(await operatorList(), 'message');
          expectUnavailableJson(await headlessStart(), 'message');
          expectUnavailableJson(await directLogin(), 'message');

          const page = await hostedAuthorize();
          expect(page.statusCode).toBe(503);
          expect(page.headers['retry-after']).toBe('2');
          expect(page.headers['content-type']).toMatch(/^text\/html/);
          expect(page.body).toContain('Try again in a moment');

          expect((await health('live')).statusCode).toBe(200);
          const ready = await health('ready');
          expect(ready.statusCode).toBe(503);
          expect(ready.json()).toMatchObject({
            status: 'unavailable',
            reason: fault === 'drop' ? 'database_unavailable' : 'database_timeout',
          });

          // Past the caches' lifetimes, the node still publishes the keys and the metadata it has.
          t.clock.advance(60_000);
          const cached = await jwks();
          expect(cached.statusCode).toBe(200);
          expect(cached.body).toBe(publishedBefore);
          const metadata = await discovery();
          expect(metadata.statusCode).toBe(200);
          expect(metadata.body).toBe(discoveryBefore);
        } finally {
          proxy.heal();
        }

        // Ready again without a restart, as a load balancer's probe sees it: a busy machine may miss the
        // short connect limit on the first fresh connections, which is itself a prompt 503.
        const readyBy = Date.now() + 5_000;
        let ready = await health('ready');
        while (ready.statusCode !== 200 && Date.now() < readyBy) ready = await health('ready');
        expect(ready.statusCode).toBe(200);
        // The refresh refused during the outage consumed nothing: the same token rotates now.
        const rotated = await refresh();
        expect(rotated.statusCode, rotated.body).toBe(200);
        tokens = rotated.json();
        expect((await userinfo()).statusCode).toBe(200);
        expect((await operatorList()).statusCode).toBe(200);
        expect((await headlessStart()).statusCode).toBe(200);
        expect((await hostedAuthorize()).statusCode).toBe(302); // on to the sign-in page
      }, 30_000);
    }
  },
);

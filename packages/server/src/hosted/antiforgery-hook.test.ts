import { randomBytes } from 'node:crypto';
import fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../kernel/clock.js';
import { randomIds } from '../kernel/ids.js';
import { FakeClock } from '../test-support/fake-clock.js';
import { Antiforgery, ANTIFORGERY_COOKIE, deriveHostedKey } from '../http/antiforgery.js';
import { issueAntiforgeryToken } from './antiforgery-hook.js';
import { renderIdentifyPage } from './pages/identify-page.js';
import { sendPage } from '../http/pages/reply.js';
import { hostedRoutes } from './routes.js';

const AUTH_BASE = '/svc/auth';

/**
 * A stand-in for the sign-in routes of the next step: a GET page with a form, and a POST that counts
 * how often it ran, to prove that refused posts never reach it.
 */
function demoRoutes(
  antiforgery: Antiforgery,
  publicOrigin: string,
  processed: { count: number },
): FastifyPluginAsync {
  return async (app) => {
    app.get('/login', async (request, reply) => {
      const token = issueAntiforgeryToken(antiforgery, { authBase: AUTH_BASE, publicOrigin }, request, reply);
      return sendPage(
        reply,
        renderIdentifyPage({ authBase: AUTH_BASE, antiforgeryToken: token, requestId: 'req_1' }),
      );
    });
    app.post('/login/identify', async () => {
      processed.count += 1;
      return { processed: true };
    });
  };
}

async function setup(publicOrigin = 'http://localhost:8080') {
  const clock = new FakeClock();
  const antiforgery = new Antiforgery({
    key: deriveHostedKey(randomBytes(32), 'antiforgery'),
    clock,
    ids: randomIds,
    publicOrigin,
  });
  const processed = { count: 0 };
  const app = fastify();
  await app.register(
    hostedRoutes({
      authBase: AUTH_BASE,
      antiforgery,
      routes: [demoRoutes(antiforgery, publicOrigin, processed)],
    }),
    { prefix: AUTH_BASE },
  );
  return { app, clock, processed, publicOrigin };
}

async function openForm(app: FastifyInstance, cookie?: string) {
  const response = await app.inject({
    method: 'GET',
    url: `${AUTH_BASE}/login`,
    headers: cookie === undefined ? {} : { cookie: `${ANTIFORGERY_COOKIE}=${cookie}` },
  });
  expect(response.statusCode).toBe(200);
  const token = /name="_csrf" value="([^"]+)"/.exec(response.body)?.[1];
  expect(token).toBeDefined();
  const set = response.cookies.find((c) => c.name === ANTIFORGERY_COOKIE);
  return { response, token: token ?? '', cookieId: set?.value ?? cookie ?? '', setCookie: set };
}

function post(
  app: FastifyInstance,
  options: {
    cookieId?: string;
    token?: string;
    origin?: string;
    referer?: string;
    body?: string;
    type?: string;
  },
) {
  const headers: Record<string, string> = {
    'content-type': options.type ?? 'application/x-www-form-urlencoded',
  };
  if (options.cookieId !== undefined) headers.cookie = `${ANTIFORGERY_COOKIE}=${options.cookieId}`;
  if (options.origin !== undefined) headers.origin = options.origin;
  if (options.referer !== undefined) headers.referer = options.referer;
  const fields = new URLSearchParams({ request_id: 'req_1', email: 'a@example.com' });
  if (options.token !== undefined) fields.set('_csrf', options.token);
  return app.inject({
    method: 'POST',
    url: `${AUTH_BASE}/login/identify`,
    headers,
    payload: options.body ?? fields.toString(),
  });
}

describe('hosted antiforgery (cookie + form field + origin), through the hosted plugin', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('lets a form from the GET page through when posted from the public origin', async () => {
    const ctx = await setup();
    app = ctx.app;
    const form = await openForm(app);
    const response = await post(app, {
      cookieId: form.cookieId,
      token: form.token,
      origin: ctx.publicOrigin,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ processed: true });
    expect(ctx.processed.count).toBe(1);
  });

  it('sets the cookie HttpOnly, SameSite=Lax, Path=<auth base>, without Secure on http://localhost', async () => {
    const ctx = await setup('http://localhost:8080');
    app = ctx.app;
    const form = await openForm(app);
    expect(form.setCookie).toMatchObject({ path: AUTH_BASE, httpOnly: true, sameSite: 'Lax' });
    expect(form.setCookie?.secure).toBeUndefined();
    expect(form.response.headers['set-cookie']).toMatch(
      /^svc_af=[A-Za-z0-9_-]{43}; Path=\/svc\/auth; HttpOnly; SameSite=Lax$/,
    );
  });

  it('sets the cookie Secure for an https public origin', async () => {
    const ctx = await setup('https://id.example.com');
    app = ctx.app;
    const form = await openForm(app);
    expect(form.setCookie).toMatchObject({ path: AUTH_BASE, httpOnly: true, sameSite: 'Lax', secure: true });
  });

  it('keeps the browser’s cookie on the next page, and both tabs’ forms work', async () => {
    const ctx = await setup();
    app = ctx.app;
    const first = await openForm(app);
    const second = await openForm(app, first.cookieId);
    expect(second.setCookie).toBeUndefined();
    for (const token of [first.token, second.token]) {
      const response = await post(app, { cookieId: first.cookieId, token, origin: ctx.publicOrigin });
      expect(response.statusCode).toBe(200);
    }
    expect(ctx.processed.count).toBe(2);
  });

  it('answers 400 with the hosted error page before the route runs, for every failed check', async () => {
    const ctx = await setup();
    app = ctx.app;
    const form = await openForm(app);
    const other = await openForm(app, 'x');
    const [issuedAt, mac] = form.token.split('.') as [string, string];
    const origin = ctx.publicOrigin;
    const cases: Record<string, Parameters<typeof post>[1]> = {
      'missing cookie': { token: form.token, origin },
      'missing field': { cookieId: form.cookieId, origin },
      'tampered token': {
        cookieId: form.cookieId,
        token: `${issuedAt}.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`,
        origin,
      },
      'token of another browser': { cookieId: other.cookieId, token: form.token, origin },
      'cross-origin Origin': { cookieId: form.cookieId, token: form.token, origin: 'https://evil.example' },
      'Origin null': { cookieId: form.cookieId, token: form.token, origin: 'null' },
      'cross-origin Referer without Origin': {
        cookieId: form.cookieId,
        token: form.token,
        referer: 'https://evil.example/page',
      },
      'neither Origin nor Referer': { cookieId: form.cookieId, token: form.token },
      'text/plain body': {
        cookieId: form.cookieId,
        origin,
        type: 'text/plain',
        body: `_csrf=${form.token}`,
      },
    };
    for (const [name, options] of Object.entries(cases)) {
      const response = await post(app, options);
      expect(response.statusCode, name).toBe(400);
      expect(response.headers['content-type'], name).toBe('text/html; charset=utf-8');
      expect(response.headers['content-security-policy'], name).toContain("default-src 'none'");
      expect(response.headers['cache-control'], name).toBe('no-store');
      expect(response.body, name).toContain('<h1 id="page-title">This form has expired</h1>');
    }
    expect(ctx.processed.count).toBe(0);
  });

  it('refuses a form older than one hour (fake clock), accepts it just before', async () => {
    const ctx = await setup();
    app = ctx.app;
    const form = await openForm(app);
    const send = () => post(app!, { cookieId: form.cookieId, token: form.token, origin: ctx.publicOrigin });
    ctx.clock.advance(HOUR_MS);
    expect((await send()).statusCode).toBe(200);
    ctx.clock.advance(1);
    const expired = await send();
    expect(expired.statusCode).toBe(400);
    expect(expired.body).toContain('This form has expired');
    expect(ctx.processed.count).toBe(1);
  });

  it('falls back to a same-origin Referer when Origin is absent', async () => {
    const ctx = await setup();
    app = ctx.app;
    const form = await openForm(app);
    const response = await post(app, {
      cookieId: form.cookieId,
      token: form.token,
      referer: `${ctx.publicOrigin}${AUTH_BASE}/login?request_id=req_1`,
    });
    expect(response.statusCode).toBe(200);
    expect(ctx.processed.count).toBe(1);
  });

  it('leaves GET requests alone', async () => {
    const ctx = await setup();
    app = ctx.app;
    const response = await app.inject({
      method: 'GET',
      url: `${AUTH_BASE}/logged-out`,
      headers: { origin: 'https://evil.example' },
    });
    expect(response.statusCode).toBe(200);
  });
});

import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import { randomBytes } from 'node:crypto';
import fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { SvcError, SvcNotFoundError } from '../kernel/errors.js';
import { randomIds } from '../kernel/ids.js';
import { FakeClock } from '../test-support/fake-clock.js';
import { Antiforgery, ANTIFORGERY_COOKIE, deriveHostedKey } from '../http/antiforgery.js';
import { issueAntiforgeryToken } from './antiforgery-hook.js';
import { SvcHostedPageError } from '../signin/flow/page-error.js';
import { hostedRoutes } from './routes.js';
import { HOSTED_CONTENT_SECURITY_POLICY } from '../http/pages/security-headers.js';
import { HOSTED_CSS, STYLESHEET_PATH } from '../http/pages/styles.js';

const ORIGIN = 'http://localhost:8080';

async function build(routes: FastifyPluginAsync[] = [], parent?: (app: FastifyInstance) => Promise<void>) {
  const antiforgery = new Antiforgery({
    key: deriveHostedKey(randomBytes(32), 'antiforgery'),
    clock: new FakeClock(),
    ids: randomIds,
    publicOrigin: ORIGIN,
  });
  const app = fastify();
  // Mounted the way the app mounts surfaces: the auth path inside the dashboard base.
  await app.register(
    async (svc) => {
      await parent?.(svc);
      await svc.register(hostedRoutes({ authBase: '/svc/auth', antiforgery, routes }), {
        prefix: '/auth',
      });
    },
    { prefix: '/svc' },
  );
  return { app, antiforgery };
}

function expectSecurityHeaders(headers: Record<string, unknown>, cache = 'no-store') {
  expect(headers['content-security-policy']).toBe(HOSTED_CONTENT_SECURITY_POLICY);
  expect(headers['content-security-policy']).toBe(
    "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'",
  );
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('same-origin');
  expect(headers['cache-control']).toBe(cache);
}

describe('hosted routes', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('serves the stylesheet at its hashed path with a year of cache, an ETag and 304 revalidation', async () => {
    ({ app } = await build());
    const url = `/svc/auth${STYLESHEET_PATH}`;
    const response = await app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(response.body).toBe(HOSTED_CSS);
    expectSecurityHeaders(response.headers, 'public, max-age=31536000, immutable');
    const etag = String(response.headers.etag);
    expect(etag).toMatch(/^"[0-9a-f]{16}"$/);
    expect(STYLESHEET_PATH).toBe(`/assets/svc-${etag.slice(1, -1)}.css`);
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const cached = await app.inject({ method: 'GET', url, headers: { 'if-none-match': ifNoneMatch } });
      expect(cached.statusCode, ifNoneMatch).toBe(304);
      expect(cached.body).toBe('');
    }
    const stale = await app.inject({ method: 'GET', url, headers: { 'if-none-match': '"old"' } });
    expect(stale.statusCode).toBe(200);
    expect(
      (await app.inject({ method: 'GET', url: '/svc/auth/assets/svc-0000000000000000.css' })).statusCode,
    ).toBe(404);
  });

  it('serves the logged-out page as HTML with the security headers and without cookies', async () => {
    ({ app } = await build());
    const response = await app.inject({ method: 'GET', url: '/svc/auth/logged-out' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expectSecurityHeaders(response.headers);
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(response.body).toContain('<title>Signed out · Svc</title>');
    expect(response.body).toContain(`<link rel="stylesheet" href="/svc/auth${STYLESHEET_PATH}" />`);
  });

  it('renders errors as the hosted error page with the right status and never the internals', async () => {
    const thrower: FastifyPluginAsync = async (routes) => {
      routes.get('/boom', async () => {
        throw new Error('connection to db://admin:hunter2@db failed');
      });
      routes.get('/unavailable', async () => {
        throw new SvcError('upstream_down', 'SMTP credentials rejected for user x', { status: 503 });
      });
      routes.get('/missing', async () => {
        throw new SvcNotFoundError('This sign-in request no longer exists.');
      });
      routes.get('/page', async () => {
        throw new SvcHostedPageError('Link expired', 'Ask for a new link.', {
          status: 410,
          backHref: '/svc/auth/login',
        });
      });
    };
    ({ app } = await build([thrower]));
    const get = (path: string) => app!.inject({ method: 'GET', url: `/svc/auth${path}` });

    const boom = await get('/boom');
    expect(boom.statusCode).toBe(500);
    expect(boom.headers['content-type']).toBe('text/html; charset=utf-8');
    expectSecurityHeaders(boom.headers);
    expect(boom.body).toContain('<h1 id="page-title">Something went wrong</h1>');
    expect(boom.body).not.toMatch(/hunter2|db:\/\/|Error|\n\s+at /);

    const unavailable = await get('/unavailable');
    expect(unavailable.statusCode).toBe(503);
    expect(unavailable.body).toContain('Try again in a moment');
    expect(unavailable.body).not.toContain('SMTP');

    const missing = await get('/missing');
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('<h1 id="page-title">Page not found</h1>');
    expect(missing.body).toContain('<p>This sign-in request no longer exists.</p>');

    const page = await get('/page');
    expect(page.statusCode).toBe(410);
    expect(page.body).toContain('<title>Link expired · Svc</title>');
    expect(page.body).toContain('<p>Ask for a new link.</p>');
    expect(page.body).toContain('<a href="/svc/auth/login">Go back</a>');
  });

  it('answers a malformed or oversized form with a 4xx error page, not a 5xx', async () => {
    const form: FastifyPluginAsync = async (routes) => {
      routes.get('/form', async (request, reply) => ({
        token: issueAntiforgeryToken(
          antiforgery,
          { authBase: '/svc/auth', publicOrigin: ORIGIN },
          request,
          reply,
        ),
      }));
      routes.post('/small', { bodyLimit: 64 }, async () => ({ ok: true }));
    };
    let antiforgery: Antiforgery;
    ({ app, antiforgery } = await build([form]));
    const opened = await app.inject({ method: 'GET', url: '/svc/auth/form' });
    const cookie = `${ANTIFORGERY_COOKIE}=${opened.cookies[0]?.value ?? ''}`;
    const token = opened.json<{ token: string }>().token;

    const tooLarge = await app.inject({
      method: 'POST',
      url: '/svc/auth/small',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, cookie },
      payload: `_csrf=${token}&x=${'a'.repeat(200)}`,
    });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.body).toContain('Too much data');

    const multipart = await app.inject({
      method: 'POST',
      url: '/svc/auth/small',
      headers: { 'content-type': 'multipart/form-data; boundary=x', origin: ORIGIN, cookie },
      payload: '--x--',
    });
    expect(multipart.statusCode).toBe(415);
    expect(multipart.body).toContain('This form cannot be read');

    const ok = await app.inject({
      method: 'POST',
      url: '/svc/auth/small',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, cookie },
      payload: `_csrf=${encodeURIComponent(token)}`,
    });
    expect(ok.statusCode).toBe(200);
  });

  it('works beside a parent scope that registered the form parser and cookies itself', async () => {
    ({ app } = await build([], async (svc) => {
      await svc.register(fastifyFormbody);
      await svc.register(fastifyCookie);
    }));
    const response = await app.inject({ method: 'GET', url: '/svc/auth/logged-out' });
    expect(response.statusCode).toBe(200);
  });

  it('keeps its form parser, cookies and headers inside its own scope', async () => {
    const antiforgery = new Antiforgery({
      key: randomBytes(32),
      clock: new FakeClock(),
      ids: randomIds,
      publicOrigin: ORIGIN,
    });
    app = fastify();
    await app.register(hostedRoutes({ authBase: '/svc/auth', antiforgery }), {
      prefix: '/svc/auth',
    });
    app.post('/elsewhere', async (request) => ({ cookies: 'cookies' in request }));
    app.get('/elsewhere', async () => ({ ok: true }));
    await app.ready();
    expect(app.hasContentTypeParser('application/x-www-form-urlencoded')).toBe(false);
    const get = await app.inject({ method: 'GET', url: '/elsewhere' });
    expect(get.headers['content-security-policy']).toBeUndefined();
    const post = await app.inject({
      method: 'POST',
      url: '/elsewhere',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'a=1',
    });
    expect(post.statusCode).toBe(415);
  });
});

import fastifyCookie from '@fastify/cookie';
import fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../test-support/fake-clock.js';
import {
  clearSessionCookie,
  cookieSecure,
  isLoopbackHttpOrigin,
  readSessionCookie,
  SESSION_COOKIE,
  sessionCookieOptions,
  setSessionCookie,
  type CookieSite,
} from './cookies.js';

const HOUR_S = 3600;

describe('cookie security by public origin', () => {
  it('drops Secure only for plain-http loopback origins', () => {
    for (const origin of ['http://localhost:8080', 'http://127.0.0.1', 'http://[::1]:3000']) {
      expect(isLoopbackHttpOrigin(origin), origin).toBe(true);
      expect(cookieSecure(origin), origin).toBe(false);
    }
    for (const origin of [
      'https://localhost:8443',
      'https://id.example.com',
      'http://id.example.com',
      'http://localhost.example.com',
      'http://127.0.0.2',
    ]) {
      expect(cookieSecure(origin), origin).toBe(true);
    }
  });

  it('counts Max-Age down to the expiry and never below zero', () => {
    const site: CookieSite = { authBase: '/svc/auth', publicOrigin: 'https://id.example.com' };
    expect(sessionCookieOptions(site, 10_500, 0)).toEqual({
      path: '/svc/auth',
      httpOnly: true,
      sameSite: 'lax',
      secure: true,
      maxAge: 11,
    });
    expect(sessionCookieOptions(site, 0, 5_000).maxAge).toBe(0);
  });
});

describe('issuer session cookie over HTTP', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  async function build(site: CookieSite) {
    const clock = new FakeClock();
    const instance = fastify();
    await instance.register(fastifyCookie);
    instance.get(`${site.authBase}/set`, async (_request, reply) => {
      setSessionCookie(reply, site, 'ses_abc.secret-value', clock.now() + HOUR_S * 1000, clock.now());
      return { ok: true };
    });
    instance.get(`${site.authBase}/clear`, async (_request, reply) => {
      clearSessionCookie(reply, site);
      return { ok: true };
    });
    instance.get(`${site.authBase}/read`, async (request) => ({ value: readSessionCookie(request) ?? null }));
    return instance;
  }

  it('is HttpOnly, SameSite=Lax, Path=<auth base>, Max-Age from the expiry, and not Secure on http://localhost', async () => {
    app = await build({ authBase: '/svc/auth', publicOrigin: 'http://localhost:8080' });
    const response = await app.inject({ method: 'GET', url: '/svc/auth/set' });
    expect(response.headers['set-cookie']).toBe(
      `${SESSION_COOKIE}=ses_abc.secret-value; Max-Age=3600; Path=/svc/auth; HttpOnly; SameSite=Lax`,
    );
  });

  it('is Secure for an https public origin, under a custom auth base', async () => {
    app = await build({ authBase: '/id/auth', publicOrigin: 'https://id.example.com' });
    const response = await app.inject({ method: 'GET', url: '/id/auth/set' });
    expect(response.headers['set-cookie']).toBe(
      `${SESSION_COOKIE}=ses_abc.secret-value; Max-Age=3600; Path=/id/auth; HttpOnly; Secure; SameSite=Lax`,
    );
  });

  it('clears with the same Path and attributes, so the browser replaces the cookie', async () => {
    app = await build({ authBase: '/svc/auth', publicOrigin: 'https://id.example.com' });
    const response = await app.inject({ method: 'GET', url: '/svc/auth/clear' });
    const header = String(response.headers['set-cookie']);
    expect(header).toMatch(
      /^svc_session=; Max-Age=0; Path=\/svc\/auth; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax$/,
    );
  });

  it('reads a well-formed value and ignores a missing or malformed one', async () => {
    app = await build({ authBase: '/svc/auth', publicOrigin: 'http://localhost:8080' });
    const read = async (cookie?: string) =>
      (
        await app!.inject({
          method: 'GET',
          url: '/svc/auth/read',
          headers: cookie === undefined ? {} : { cookie },
        })
      ).json<{ value: string | null }>().value;
    expect(await read(`${SESSION_COOKIE}=ses_abc.secret-value; other=1`)).toBe('ses_abc.secret-value');
    expect(await read()).toBeNull();
    expect(await read(`${SESSION_COOKIE}=`)).toBeNull();
    expect(await read(`${SESSION_COOKIE}=${encodeURIComponent('<script>')}`)).toBeNull();
    expect(await read(`${SESSION_COOKIE}=${'a'.repeat(1025)}`)).toBeNull();
  });

  it('refuses to set a value a browser could mangle', () => {
    const reply = { setCookie: () => undefined, clearCookie: () => undefined };
    const site = { authBase: '/svc/auth', publicOrigin: 'http://localhost:8080' };
    expect(() => setSessionCookie(reply, site, 'a;b', 1, 0)).toThrow(/URL-safe/);
    expect(() => setSessionCookie(reply, site, '', 1, 0)).toThrow(/URL-safe/);
  });
});

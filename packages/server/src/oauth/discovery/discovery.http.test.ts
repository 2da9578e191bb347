import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InjectOptions } from 'fastify';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import * as oauth from 'oauth4webapi';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createSvc } from '../../app/create-svc.js';
import { NOT_FOUND_BODY } from '../../http/errors.js';
import { DAY_MS } from '../../kernel/clock.js';
import type { SvcOptions } from '../../config/options.js';
import { createTestSvc, TEST_ORIGIN, type TestSvc } from '../../test-support/test-svc.js';

const ISSUER = `${TEST_ORIGIN}/svc/auth`;
const AS_METADATA = '/svc/auth/.well-known/oauth-authorization-server';
const OPENID_CONFIGURATION = '/svc/auth/.well-known/openid-configuration';
const JWKS = '/svc/auth/.well-known/jwks.json';
const OPENID_FIELDS = [
  'subject_types_supported',
  'id_token_signing_alg_values_supported',
  'claims_supported',
];

describe('discovery and JWKS over HTTP', () => {
  let t: TestSvc | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const start = async (options: SvcOptions = {}) => {
    t = await createTestSvc('sqlite', options);
    return t;
  };
  const get = async (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') => {
    if (t === undefined) throw new Error('start() first');
    return t.svc.app.inject({ method, url, headers } satisfies InjectOptions);
  };
  const metadata = async (url = AS_METADATA) => {
    const response = await get(url);
    expect(response.statusCode).toBe(200);
    return response.json<Record<string, unknown>>();
  };
  const jwks = async () => {
    const response = await get(JWKS);
    expect(response.statusCode).toBe(200);
    return response.json<JSONWebKeySet>();
  };

  it('serves the same document at both discovery paths, with the configured issuer', async () => {
    await start();
    const asMetadata = await get(AS_METADATA);
    const openId = await get(OPENID_CONFIGURATION);
    expect(openId.body).toBe(asMetadata.body);
    expect(asMetadata.json()).toMatchObject({
      issuer: ISSUER,
      jwks_uri: `${ISSUER}/.well-known/jwks.json`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      code_challenge_methods_supported: ['S256'],
      request_parameter_supported: false,
      request_uri_parameter_supported: false,
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      scopes_supported: ['email', 'openid', 'profile'],
    });
    // The issuer never comes from the request.
    const forged = await get(AS_METADATA, { host: 'evil.example', 'x-forwarded-host': 'evil.example' });
    expect(forged.json()).toMatchObject({ issuer: ISSUER });
  });

  it('serves the metadata where RFC 8414 puts it for an issuer with a path, as an RFC 8414 client finds it', async () => {
    await start();
    const rooted = await get(`/.well-known/oauth-authorization-server/svc/auth`);
    const underBase = await get(AS_METADATA);
    expect(rooted.statusCode).toBe(200);
    expect(rooted.body).toBe(underBase.body);
    expect(rooted.headers.etag).toBe(underBase.headers.etag);
    expect(rooted.headers['cache-control']).toBe(underBase.headers['cache-control']);
    expect((await get('/.well-known/oauth-authorization-server')).statusCode).toBe(404);
    expect((await get('/.well-known/openid-configuration/svc/auth')).statusCode).toBe(404);
    // oauth4webapi's `oauth2` discovery builds exactly that URL and checks the issuer it finds.
    const seen: string[] = [];
    const response = await oauth.discoveryRequest(new URL(ISSUER), {
      algorithm: 'oauth2',
      [oauth.allowInsecureRequests]: true,
      [oauth.customFetch]: async (url) => {
        seen.push(new URL(url).pathname);
        const answer = await get(new URL(url).pathname);
        return new Response(answer.body, {
          status: answer.statusCode,
          headers: { 'content-type': String(answer.headers['content-type']) },
        });
      },
    });
    const server = await oauth.processDiscoveryResponse(new URL(ISSUER), response);
    expect(seen).toEqual(['/.well-known/oauth-authorization-server/svc/auth']);
    expect(server.token_endpoint).toBe(`${ISSUER}/token`);
  });

  it.each<[string, SvcOptions['openId'], boolean]>([
    ['provider mode is off', { enabled: false }, false],
    ['the discovery document is not published', { publishDiscoveryDocument: false }, true],
  ])(
    'answers 404 at openid-configuration when %s, and keeps the RFC 8414 document',
    async (_n, openId, on) => {
      await start(openId === undefined ? {} : { openId });
      const response = await get(OPENID_CONFIGURATION);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND_BODY);
      const document = await metadata();
      expect(document.issuer).toBe(ISSUER);
      for (const field of OPENID_FIELDS) expect(Object.hasOwn(document, field), field).toBe(on);
      // userinfo is mapped while provider mode is on, whether or not the OpenID document is published.
      expect(Object.hasOwn(document, 'userinfo_endpoint')).toBe(on);
      // Provider mode off and no client: an empty list (docs/reference/tokens-and-sessions.md "Discovery and JWKS" discovery rules).
      expect(document.scopes_supported).toEqual(on ? ['email', 'openid', 'profile'] : []);
    },
  );

  it('advertises the sorted union of client scopes, never an auth:* scope', async () => {
    const { operator } = await start();
    const before = await get(AS_METADATA);
    const createClient = (clientId: string, allowedScopes: string[]) =>
      t?.svc.app.inject({
        method: 'POST',
        url: '/svc/admin/auth/api/clients',
        headers: operator,
        payload: {
          clientId,
          name: clientId,
          audience: 'https://api.example',
          redirectUris: [],
          allowedScopes,
        },
      });

    expect((await createClient('orders', ['read:orders', 'offline_access']))?.statusCode).toBe(201);
    const after = await get(AS_METADATA);
    // offline_access appears because a client allow-lists it (the reading recorded in
    // @svc/contract DEFAULT_CLIENT_SCOPES); read:orders is picked up at once (the admin write invalidates).
    expect(after.json<{ scopes_supported: string[] }>().scopes_supported).toEqual([
      'email',
      'offline_access',
      'openid',
      'profile',
      'read:orders',
    ]);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect((await get(AS_METADATA, { 'if-none-match': String(before.headers.etag) })).statusCode).toBe(200);

    const internal = await createClient('internal', ['read:orders', 'auth:admin']);
    expect(internal?.statusCode).toBe(400);
    expect(internal?.json()).toMatchObject({
      message: expect.stringMatching(/allowedScopes\.1: .*internal/),
    });
    expect((await createClient('more', ['write:orders', 'read:orders']))?.statusCode).toBe(201);
    for (const url of [AS_METADATA, OPENID_CONFIGURATION]) {
      const scopes = (await metadata(url)).scopes_supported as string[];
      expect(scopes).toEqual([...new Set(scopes)].sort());
      expect(scopes).toContain('write:orders');
      expect(scopes.filter((scope) => scope.startsWith('auth:'))).toEqual([]);
    }
  });

  it.each([
    // Discovery changes with a deployment or a client's scopes; a JWKS copy must not outlive a rotation long.
    [AS_METADATA, 'public, max-age=3600, must-revalidate'],
    [OPENID_CONFIGURATION, 'public, max-age=3600, must-revalidate'],
    [JWKS, 'public, max-age=300, must-revalidate'],
  ])('%s: cacheable (%s), ETag and 304', async (url, cacheControl) => {
    await start();
    const first = await get(url);
    expect(first.headers['cache-control']).toBe(cacheControl);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.headers['access-control-allow-origin']).toBe('*');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    for (const condition of [etag, `W/${etag}`, `"stale", ${etag}`, '*']) {
      for (const method of ['GET', 'HEAD'] as const) {
        const revalidated = await get(url, { 'if-none-match': condition }, method);
        expect(revalidated.statusCode, `${method} If-None-Match: ${condition}`).toBe(304);
        expect(revalidated.body).toBe('');
        expect(revalidated.headers.etag).toBe(etag);
      }
    }
    for (const condition of ['"stale"', etag.slice(0, -2) + '"', 'garbage']) {
      const fresh = await get(url, { 'if-none-match': condition });
      expect(fresh.statusCode, condition).toBe(200);
      expect(fresh.body).toBe(first.body);
    }
  });

  it('follows a rotation at once on this node, and another node’s changes within the cache lifetimes', async () => {
    const { svc, clock, operator } = await start();
    const kids = (response: { json: () => JSONWebKeySet }) => response.json().keys.map((key) => key.kid);
    const first = await get(JWKS);
    const kid = await svc.signingKeys.rotate();
    const rotated = await get(JWKS, { 'if-none-match': String(first.headers.etag) });
    expect(rotated.statusCode).toBe(200);
    expect(rotated.headers.etag).not.toBe(first.headers.etag);
    expect(kids(rotated)).toContain(kid);
    const discovered = await get(AS_METADATA);

    const dataDir = mkdtempSync(join(tmpdir(), 'svc-other-node-'));
    const other = await createSvc(
      {
        databaseUrl: svc.config.database.url,
        dataDir,
        secretKey: inject('testMasterKey'),
        publicOrigin: TEST_ORIGIN,
        adminToken: operator.authorization.slice('Bearer '.length),
        logLevel: false,
        keyRotationSchedule: false,
        clock,
      },
      { env: {} },
    );
    try {
      const elsewhere = await other.signingKeys.rotate();
      const created = await other.app.inject({
        method: 'POST',
        url: '/svc/admin/auth/api/clients',
        headers: operator,
        payload: {
          clientId: 'orders',
          name: 'orders',
          audience: 'https://api.example',
          redirectUris: [],
          allowedScopes: ['read:orders'],
        },
      });
      expect(created.statusCode).toBe(201);
      // Until this node reads again (discovery after 10 s, the keys after signingKeyCacheMs), its
      // documents stay as they were: a cache revalidating them gets a 304.
      clock.advance(9_999);
      expect((await get(AS_METADATA, { 'if-none-match': String(discovered.headers.etag) })).statusCode).toBe(
        304,
      );
      clock.advance(1);
      expect((await metadata()).scopes_supported).toContain('read:orders');
      clock.advance(svc.config.signingKeyCacheMs - 10_001);
      expect((await get(JWKS, { 'if-none-match': String(rotated.headers.etag) })).statusCode).toBe(304);
      clock.advance(1);
      const followed = await get(JWKS, { 'if-none-match': String(rotated.headers.etag) });
      expect(followed.statusCode).toBe(200);
      expect(kids(followed)).toContain(elsewhere);
    } finally {
      await other.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('publishes public keys that verify a token Svc signs', async () => {
    const { svc, clock } = await start();
    const set = await jwks();
    expect(set.keys).toHaveLength(1);
    for (const key of set.keys) {
      expect(key).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: expect.any(String) });
      for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(key).not.toHaveProperty(secret);
    }
    const token = await svc.tokens.sign(
      { scope: 'read:orders' },
      { subject: 'usr_1', audience: 'https://api.example', expiresInSeconds: 300 },
    );
    const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(set), {
      issuer: ISSUER,
      audience: 'https://api.example',
      currentDate: new Date(clock.now()),
    });
    expect(protectedHeader).toMatchObject({ alg: 'RS256', kid: set.keys[0]?.kid });
    expect(payload).toMatchObject({ sub: 'usr_1', scope: 'read:orders', iss: ISSUER });
  });

  it('publishes the old key through the grace window after a rotation, then only the new one', async () => {
    const { svc, clock } = await start();
    const [original] = (await jwks()).keys;
    const sign = () =>
      svc.tokens.sign(
        {},
        { subject: 'usr_1', audience: 'https://api.example', expiresInSeconds: (60 * DAY_MS) / 1000 },
      );
    const verify = async (token: string) =>
      jwtVerify(token, createLocalJWKSet(await jwks()), { currentDate: new Date(clock.now()) });
    const oldToken = await sign();

    const newKid = await svc.signingKeys.rotate();
    expect(newKid).not.toBe(original?.kid);
    clock.advance(31_000);
    expect((await jwks()).keys.map((key) => key.kid).sort()).toEqual([original?.kid, newKid].sort());
    const newToken = await sign();
    await expect(verify(oldToken)).resolves.toMatchObject({ protectedHeader: { kid: original?.kid } });
    await expect(verify(newToken)).resolves.toMatchObject({ protectedHeader: { kid: newKid } });

    const { signingKeyGraceWindowDays } = await svc.securitySettings.get();
    clock.advance(signingKeyGraceWindowDays * DAY_MS);
    expect((await jwks()).keys.map((key) => key.kid)).toEqual([newKid]);
    await expect(verify(oldToken)).rejects.toMatchObject({ code: 'ERR_JWKS_NO_MATCHING_KEY' });
    await expect(verify(newToken)).resolves.toMatchObject({ protectedHeader: { kid: newKid } });
  });
});

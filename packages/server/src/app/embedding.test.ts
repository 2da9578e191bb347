import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_FOUND_BODY } from '../http/errors.js';
import { createTestSvc, TEST_ORIGIN, type TestSvc } from '../test-support/test-svc.js';

const ISSUER = `${TEST_ORIGIN}/svc/auth`;
const ADMIN = '/svc/admin/auth/api';

describe('Svc mounted as a plugin in a host Fastify app', () => {
  let t: TestSvc;
  let host: FastifyInstance;
  beforeAll(async () => {
    t = await createTestSvc();
    // A host with its own routes and a larger body limit than Svc's.
    host = Fastify({ logger: false, bodyLimit: 4 * 1024 * 1024 });
    // The host describes its own API with @fastify/swagger, registered before Svc as its docs say.
    await host.register(swagger, { openapi: { info: { title: 'Host', version: '1.0.0' } } });
    host.get('/health', async () => ({ ok: true }));
    host.post('/upload', async (request) => ({ bytes: JSON.stringify(request.body).length }));
    await host.register(t.svc.plugin);
    await host.ready();
  });
  afterAll(async () => {
    await host.close();
    await t.close();
  });

  it("keeps the host's own routes working", async () => {
    const health = await host.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ ok: true });
    // The host's limit still holds for the host's routes.
    const upload = await host.inject({
      method: 'POST',
      url: '/upload',
      payload: { pad: 'x'.repeat(300 * 1024) },
    });
    expect(upload.statusCode).toBe(200);
  });

  it("leaves Svc's routes out of the host's OpenAPI description and keeps the host's own", async () => {
    const paths = Object.keys(host.swagger().paths ?? {});
    expect(paths).toEqual(expect.arrayContaining(['/health', '/upload']));
    expect(paths.filter((path) => path.startsWith('/svc') || path.startsWith('/.well-known'))).toEqual([]);
    expect(paths).toHaveLength(2);
  });

  it('serves discovery and the JWKS under /svc', async () => {
    const discovery = await host.inject({ method: 'GET', url: '/svc/auth/.well-known/openid-configuration' });
    expect(discovery.statusCode).toBe(200);
    expect(discovery.json()).toMatchObject({ issuer: ISSUER, jwks_uri: `${ISSUER}/.well-known/jwks.json` });
    const jwks = await host.inject({ method: 'GET', url: '/svc/auth/.well-known/jwks.json' });
    expect(jwks.json<{ keys: unknown[] }>().keys).toHaveLength(1);
  });

  it('serves the operator API behind the guard, on the same database as the standalone app', async () => {
    const created = await host.inject({
      method: 'POST',
      url: `${ADMIN}/organizations`,
      headers: t.operator,
      payload: { name: 'Hosted' },
    });
    expect(created.statusCode).toBe(201);
    const standalone = await t.svc.app.inject({
      method: 'GET',
      url: `${ADMIN}/organizations`,
      headers: t.operator,
    });
    expect(standalone.json()).toMatchObject({ data: [{ name: 'Hosted' }] });

    const refused = await host.inject({ method: 'GET', url: `${ADMIN}/organizations` });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual(NOT_FOUND_BODY);
  });

  it("answers unknown /svc routes with Svc's 404 and leaves other unknown routes to the host", async () => {
    for (const url of ['/svc/nothing', '/svc/auth/nope', `${ADMIN}/nope`]) {
      const response = await host.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).toBe(JSON.stringify(NOT_FOUND_BODY));
      expect(response.headers['cache-control'], url).toBe('no-store');
    }
    const hostOwn = await host.inject({ method: 'GET', url: '/nothing' });
    expect(hostOwn.statusCode).toBe(404);
    expect(hostOwn.json()).not.toEqual(NOT_FOUND_BODY);
  });

  it("keeps Svc's 256 KiB body limit under a host with a larger one", async () => {
    const response = await host.inject({
      method: 'POST',
      url: `${ADMIN}/organizations`,
      headers: t.operator,
      payload: { name: 'Big', pad: 'x'.repeat(300 * 1024) },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ error: 'payload_too_large' });
  });
});

describe('Svc as a plain Node handler', () => {
  let t: TestSvc;
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    t = await createTestSvc();
    server = createServer(t.svc.handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve, reject) =>
      server.close((error) => (error ? reject(error) : resolve())),
    );
    await t.close();
  });

  it('answers discovery and the JWKS over a real socket', async () => {
    const discovery = await fetch(`${origin}/svc/auth/.well-known/oauth-authorization-server`);
    expect(discovery.status).toBe(200);
    expect(discovery.headers.get('content-type')).toBe('application/json; charset=utf-8');
    // The issuer is the configured one, not the address the request came in on.
    expect(await discovery.json()).toMatchObject({ issuer: ISSUER });
    const jwks = await fetch(`${origin}/svc/auth/.well-known/jwks.json`);
    expect(((await jwks.json()) as { keys: unknown[] }).keys).toHaveLength(1);
  });

  it('answers the operator API and the unknown-route 404', async () => {
    const list = await fetch(`${origin}${ADMIN}/organizations`, { headers: t.operator });
    expect(list.status).toBe(200);
    expect(await list.json()).toEqual({ data: [], nextCursor: null });
    const refused = await fetch(`${origin}${ADMIN}/organizations`);
    expect(refused.status).toBe(404);
    expect(await refused.text()).toBe(JSON.stringify(NOT_FOUND_BODY));
  });
});

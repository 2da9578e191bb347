import Fastify, { type FastifyInstance, type InjectOptions } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  pageSchema,
  svcClientSchema,
  svcCreatedClientSchema,
  svcMembershipSchema,
  svcOrganizationSchema,
  svcSecuritySettingsSchema,
  svcUserSchema,
} from '@svc/contract';
import { DEFAULT_SECURITY_SETTINGS } from '../settings/security-settings.js';
import { encodeCursor } from '../storage/paging.js';
import { describeAboveStorage } from '../test-support/databases.js';
import { createTestSvc, type TestSvc } from '../test-support/test-svc.js';
import { adminApiRoutes } from './routes.js';

const BASE = '/svc/admin/auth/api';

describeAboveStorage('admin API routes', (kind) => {
  let t: TestSvc;
  let app: FastifyInstance;

  /** The routes under test over the operator API of a new test Svc. */
  const open = async () => {
    t = await createTestSvc(kind);
    app = Fastify({ logger: false });
    await app.register(adminApiRoutes({ admin: t.svc.admin }), { prefix: BASE });
    await app.ready();
  };
  const close = async () => {
    await app.close();
    await t.close();
  };

  const call = async (
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    payload?: string | object,
    headers: Record<string, string> = {},
  ) => {
    const options: InjectOptions = { method, url: `${BASE}${path}`, headers };
    if (payload !== undefined) options.payload = payload;
    const response = await app.inject(options);
    expect(response.statusCode, response.body).toBeLessThan(500);
    return {
      status: response.statusCode,
      body: response.json<Record<string, unknown>>(),
      headers: response.headers,
    };
  };

  describe('over an empty directory', () => {
    // Each test lists or counts what it stored, or reads the initial settings: an app of its own.
    beforeEach(open);
    afterEach(close);

    it('creates and lists organizations, users, memberships and clients', async () => {
      const org = await call('POST', '/organizations', {
        Name: 'Acme',
        primaryDomain: 'Acme.com',
        unknownKey: 1,
      });
      expect(org.status).toBe(201);
      expect(org.headers['cache-control']).toBe('no-store');
      expect(svcOrganizationSchema.parse(org.body)).toMatchObject({
        slug: 'acme',
        primaryDomain: 'acme.com',
      });
      expect((await call('POST', '/organizations', { name: 'Acme', slug: 'acme' })).status).toBe(409);

      const user = await call('POST', '/users', {
        displayName: 'Ann',
        email: 'ann@example.com',
        password: 'long enough',
      });
      expect(user.status).toBe(201);
      expect(svcUserSchema.strict().parse(user.body)).toMatchObject({ hasPassword: true });
      expect((await call('POST', '/users', { displayName: 'Ann', email: ' ANN@example.com' })).status).toBe(
        409,
      );

      const membership = await call('POST', '/memberships', {
        organizationId: org.body.id,
        userId: user.body.id,
        role: 'owner',
      });
      expect(membership.status).toBe(201);
      expect(svcMembershipSchema.parse(membership.body)).toMatchObject({ role: 'owner' });
      const missing = await call('POST', '/memberships', {
        organizationId: 'org_nope',
        userId: user.body.id,
        role: 'owner',
      });
      expect(missing).toMatchObject({
        status: 404,
        body: { error: 'not_found', message: "Organization 'org_nope' was not found." },
      });

      const client = await call('POST', '/clients', {
        clientId: 'backend',
        name: 'Backend',
        audience: 'https://api.example.com',
        redirectUris: ['http://localhost:3000/cb', 'com.example.app:/oauth2redirect'],
        tokenEndpointAuthMethod: 'client_secret_post',
      });
      expect(client.status).toBe(201);
      const created = svcCreatedClientSchema.parse(client.body);
      expect(created.clientSecret).toEqual(expect.any(String));
      const clients = pageSchema(svcClientSchema.strict()).parse((await call('GET', '/clients')).body);
      expect(clients.data.map((c) => c.clientId)).toEqual(['backend']);

      const orgs = pageSchema(svcOrganizationSchema).parse(
        (await call('GET', '/organizations?limit=1')).body,
      );
      expect(orgs).toEqual({ data: [org.body], nextCursor: null });
      const users = pageSchema(svcUserSchema).parse((await call('GET', '/users')).body);
      expect(users.data).toHaveLength(1);
    });

    it('treats empty optional strings from forms as omitted', async () => {
      const org = await call('POST', '/organizations', { name: 'Beta', slug: '', primaryDomain: '  ' });
      expect(org).toMatchObject({ status: 201, body: { slug: 'beta', primaryDomain: null } });
    });

    it('reads and updates the security settings', async () => {
      const current = await call('GET', '/settings/security');
      expect(svcSecuritySettingsSchema.parse(current.body)).toEqual(DEFAULT_SECURITY_SETTINGS);
      const update = {
        refreshTokenLifetimeMinutes: 600,
        sessionIdleTimeoutMinutes: 120,
        sessionAbsoluteLifetimeMinutes: 1440,
        signingKeyRotationIntervalDays: 30,
        signingKeyGraceWindowDays: 5,
        signingKeyRetiredCleanupDays: 10,
      };
      const saved = await call('PUT', '/settings/security', update);
      expect(saved).toMatchObject({ status: 200, body: { ...update, refreshTokenGraceWindowSeconds: 30 } });
      expect((await call('GET', '/settings/security')).body).toEqual(saved.body);

      const invalid = await call('PUT', '/settings/security', { ...update, signingKeyGraceWindowDays: 30 });
      expect(invalid.status).toBe(400);
      expect(invalid.body.message).toMatch(/signingKeyGraceWindowDays/);
      const wrongType = await call('PUT', '/settings/security', {
        ...update,
        sessionIdleTimeoutMinutes: '120',
      });
      expect(wrongType.status).toBe(400);
      expect(wrongType.body.message).toMatch(/sessionIdleTimeoutMinutes/);
      const partial = await call('PUT', '/settings/security', { refreshTokenLifetimeMinutes: 10 });
      expect(partial.body.message).toMatch(/sessionIdleTimeoutMinutes/);
    });

    it('pages through users with the cursor', async () => {
      for (let i = 0; i < 5; i += 1)
        await call('POST', '/users', { displayName: `U${i}`, email: `u${i}@example.com` });
      const first = pageSchema(svcUserSchema).parse((await call('GET', '/users?limit=3')).body);
      const second = pageSchema(svcUserSchema).parse(
        (await call('GET', `/users?limit=3&cursor=${first.nextCursor}`)).body,
      );
      expect(first.data).toHaveLength(3);
      expect(second).toMatchObject({ nextCursor: null });
      expect(new Set([...first.data, ...second.data].map((u) => u.email)).size).toBe(5);
    });
  });

  describe('refusals', () => {
    // Nothing a refused request sends is stored: one app for them.
    beforeAll(open);
    afterAll(close);

    it.each([
      ['a body that is not JSON', '/organizations', '{"name":', /not valid JSON/],
      ['an array body', '/organizations', [{ name: 'Acme' }], /JSON object/],
      ['a missing field', '/users', { email: 'a@example.com' }, /displayName/],
      ['a wrong type', '/organizations', { name: 42 }, /name: /],
      ['null for a required field', '/users', { displayName: null, email: 'a@example.com' }, /displayName/],
      ['an oversized name', '/organizations', { name: 'x'.repeat(201) }, /name: /],
      [
        'an oversized email',
        '/users',
        { displayName: 'A', email: `${'a'.repeat(320)}@example.com` },
        /email/,
      ],
      ['a NUL in a name', '/organizations', { name: 'Ac\u0000me' }, /name: .*control/],
      [
        'a NUL in an id',
        '/memberships',
        { organizationId: 'o\u0000', userId: 'u', role: 'm' },
        /organizationId/,
      ],
      ['an invalid slug', '/organizations', { name: 'A', slug: '-bad--slug' }, /slug/],
      ['an invalid email', '/users', { displayName: 'A', email: 'not-an-email' }, /email/],
      [
        'a short password',
        '/users',
        { displayName: 'A', email: 'a@example.com', password: 'short' },
        /password/,
      ],
      [
        'a relative redirect URI',
        '/clients',
        client({ redirectUris: ['/cb'] }),
        /redirectUris\.0: must be an absolute URI/,
      ],
      [
        'a redirect URI with a fragment',
        '/clients',
        client({ redirectUris: ['https://a.example/cb#x'] }),
        /fragment/,
      ],
      ['a script redirect URI', '/clients', client({ redirectUris: ['javascript:alert(1)'] }), /scheme/],
      [
        'redirect URIs as a string',
        '/clients',
        client({ redirectUris: 'https://a.example/cb' }),
        /redirectUris/,
      ],
      [
        'too many redirect URIs',
        '/clients',
        client({ redirectUris: Array(51).fill('https://a.example/cb') }),
        /redirectUris/,
      ],
      ['a client id with spaces', '/clients', client({ clientId: 'my client' }), /clientId/],
      ['an internal scope', '/clients', client({ allowedScopes: ['auth:admin'] }), /internal/],
      ['a scope with a space', '/clients', client({ allowedScopes: ['a b'] }), /allowedScopes\.0/],
      [
        'an unknown auth method',
        '/clients',
        client({ tokenEndpointAuthMethod: 'private_key_jwt' }),
        /tokenEndpointAuthMethod/,
      ],
      ['a string boolean', '/clients', client({ isFirstParty: 'true' }), /isFirstParty/],
      [
        'client credentials for a public client',
        '/clients',
        client({ allowClientCredentials: true }),
        /allowClientCredentials/,
      ],
      [
        'a resource with a fragment',
        '/clients',
        client({ allowedResources: ['https://api.example#x'] }),
        /allowedResources/,
      ],
    ])('answers 400 naming the field for %s', async (_name, path, payload, message) => {
      const headers = { 'content-type': 'application/json' };
      const response = await call(
        'POST',
        path,
        typeof payload === 'string' ? payload : JSON.stringify(payload),
        headers,
      );
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('invalid_request');
      expect(response.body.message).toMatch(message);
    });

    it('answers 4xx for bad queries, empty bodies and other media types', async () => {
      expect((await call('GET', '/organizations?limit=abc')).body.message).toMatch(/limit/);
      expect((await call('GET', '/users?limit=500')).status).toBe(400);
      expect((await call('GET', '/users?limit=1&limit=2')).status).toBe(400);
      expect((await call('GET', '/organizations?cursor=nonsense')).body.message).toMatch(/cursor/);
      const nulCursor = encodeCursor({ at: 1, id: 'org_\u0000' });
      expect((await call('GET', `/organizations?cursor=${nulCursor}`)).status).toBe(400);
      expect((await call('POST', '/organizations', '', { 'content-type': 'application/json' })).status).toBe(
        400,
      );
      expect((await call('POST', '/organizations')).status).toBe(400);
      // Fastify parses text/plain into a string, which is not the JSON object the route needs.
      const text = await call('POST', '/organizations', 'name=x', { 'content-type': 'text/plain' });
      expect(text).toMatchObject({
        status: 400,
        body: { message: 'The request body must be a JSON object.' },
      });
    });
  });
});

function client(overrides: Record<string, unknown>): Record<string, unknown> {
  return {
    clientId: 'app',
    name: 'App',
    audience: 'https://api.example.com',
    redirectUris: [],
    ...overrides,
  };
}

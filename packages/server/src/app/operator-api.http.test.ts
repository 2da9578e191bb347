import {
  auditEventPageSchema,
  pageSchema,
  svcClientSchema,
  svcCreatedClientSchema,
  svcOrganizationSchema,
  svcSecuritySettingsSchema,
  svcUserSchema,
} from '@svc/contract';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { NOT_FOUND_BODY } from '../http/errors.js';
import { DEFAULT_SECURITY_SETTINGS } from '../settings/security-settings.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { createTestSvc, TEST_ADMIN_TOKEN, type TestSvc } from '../test-support/test-svc.js';

const ADMIN = '/svc/admin/auth/api';
const AUDIT = '/svc/admin/audit/api';
const JSON_TYPE = { 'content-type': 'application/json' };

/** Everything a caller can observe of an answer except the per-request date and connection headers. */
function observable(response: LightMyRequestResponse) {
  const { date: _date, connection: _connection, ...headers } = response.headers;
  return { status: response.statusCode, headers, body: response.rawPayload.toString('base64') };
}

describe('the operator guard', () => {
  let t: TestSvc;
  beforeAll(async () => {
    t = await createTestSvc('sqlite');
  });
  afterAll(() => t.close());

  const send = (options: InjectOptions) => t.svc.app.inject(options);
  const unknownRoute = async () => observable(await send({ method: 'GET', url: `${ADMIN}/nope` }));

  it('answers unknown routes with one 404 body everywhere under the base', async () => {
    const reference = await unknownRoute();
    expect(reference.status).toBe(404);
    expect(reference.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Buffer.from(reference.body, 'base64').toString()).toBe(JSON.stringify(NOT_FOUND_BODY));
    for (const url of ['/svc/nothing', `${AUDIT}/nope`, `${ADMIN}/nope?x=1`]) {
      expect(observable(await send({ method: 'GET', url })), url).toEqual(reference);
    }
  });

  const basic = `Basic ${Buffer.from(`operator:${TEST_ADMIN_TOKEN}`).toString('base64')}`;
  const refusedCredentials: [string, Record<string, string>][] = [
    ['no Authorization header', {}],
    ['a wrong token', { authorization: 'Bearer wrong-operator-token-0123456789abcdef' }],
    ['Basic credentials carrying the token', { authorization: basic }],
    ['the bare token under Basic', { authorization: `Basic ${TEST_ADMIN_TOKEN}` }],
    ['the token without a scheme', { authorization: TEST_ADMIN_TOKEN }],
    ['the token in upper case', { authorization: `Bearer ${TEST_ADMIN_TOKEN.toUpperCase()}` }],
    ['the token with a trailing character', { authorization: `Bearer ${TEST_ADMIN_TOKEN}x` }],
    ['the token with a leading character', { authorization: `Bearer x${TEST_ADMIN_TOKEN}` }],
    ['the token minus its last character', { authorization: `Bearer ${TEST_ADMIN_TOKEN.slice(0, -1)}` }],
    ['the token followed by a second word', { authorization: `Bearer ${TEST_ADMIN_TOKEN} extra` }],
    ['an empty bearer', { authorization: 'Bearer ' }],
    ['the token in another header', { 'x-admin-token': TEST_ADMIN_TOKEN }],
  ];
  const targets: [string, InjectOptions][] = [
    ['GET organizations', { method: 'GET', url: `${ADMIN}/organizations` }],
    ['POST organizations', { method: 'POST', url: `${ADMIN}/organizations`, payload: { name: 'Leak' } }],
    ['GET settings', { method: 'GET', url: `${ADMIN}/settings/security` }],
    ['GET audit events', { method: 'GET', url: `${AUDIT}/events` }],
    ['GET the audit export', { method: 'GET', url: `${AUDIT}/events/export` }],
  ];
  const cases = refusedCredentials.flatMap(([who, headers]) =>
    targets.map(([what, options]) => [`${what} with ${who}`, options, headers] as const),
  );

  it.each(cases)('%s is the unknown-route 404', async (_name, options, headers) => {
    const response = await send({ ...options, headers: { ...options.headers, ...headers } });
    expect(observable(response)).toEqual(await unknownRoute());
  });

  it('refuses before the body is read: bad JSON, other media types and huge bodies all get the 404', async () => {
    const reference = await unknownRoute();
    const bodies: InjectOptions[] = [
      { payload: '{"name":', headers: JSON_TYPE },
      { payload: '', headers: JSON_TYPE },
      { payload: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      { payload: `{"name":"${'x'.repeat(400 * 1024)}"}`, headers: JSON_TYPE },
    ];
    for (const body of bodies) {
      for (const url of [`${ADMIN}/organizations`, `${ADMIN}/settings/security`]) {
        const method = url.endsWith('security') ? 'PUT' : 'POST';
        expect(observable(await send({ method, url, ...body }))).toEqual(reference);
      }
    }
    const head = await send({ method: 'HEAD', url: `${ADMIN}/organizations` });
    expect(head.statusCode).toBe(404);
    expect(head.body).toBe('');
  });

  it('changed nothing for the refused requests', async () => {
    const page = await send({ method: 'GET', url: `${ADMIN}/organizations`, headers: t.operator });
    expect(page.json()).toEqual({ data: [], nextCursor: null });
    // The wrong tokens among them are audited, in aggregate (http/operator-guard.http.test.ts), and
    // nothing else is.
    const audit = await send({ method: 'GET', url: `${AUDIT}/events?limit=200`, headers: t.operator });
    const kinds = auditEventPageSchema.parse(audit.json()).data.map((event) => event.kind);
    expect(new Set(kinds)).toEqual(new Set(['admin.authentication.failed']));
  });
});

describeEachDatabase('the operator API end to end', (kind) => {
  // One operator session in three steps that build on each other (vitest runs them in order).
  let t: TestSvc;
  beforeAll(async () => {
    t = await createTestSvc(kind);
  });
  afterAll(() => t.close());

  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const options: InjectOptions = { method, url, headers: t.operator };
    if (payload !== undefined) options.payload = payload;
    const response = await t.svc.app.inject(options);
    expect(response.statusCode, response.body).toBeLessThan(500);
    expect(response.headers['cache-control']).toBe('no-store');
    return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
  };

  /** Walks a list one row per page through `nextCursor`; returns the ids in the order served. */
  const walk = async <T extends { id: string }>(url: string, item: z.ZodType<T>): Promise<string[]> => {
    const ids: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 20; pages += 1) {
      const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
      const page = pageSchema(item).parse((await call('GET', `${url}?limit=1${query}`)).body);
      expect(page.data.length).toBeLessThanOrEqual(1);
      ids.push(...page.data.map((row) => row.id));
      cursor = page.nextCursor;
      if (cursor === null) return ids;
    }
    throw new Error(`${url} never reached its last page`);
  };

  const created = { organizations: [] as string[], users: [] as string[], clients: [] as string[] };
  let clientSecret = '';

  it('creates organizations, users, a membership and clients, and lists them one per page', async () => {
    for (const name of ['Acme', 'Globex']) {
      const org = await call('POST', `${ADMIN}/organizations`, { name });
      expect(org.status).toBe(201);
      created.organizations.push(svcOrganizationSchema.parse(org.body).id);
      t.clock.advance(1000);
    }
    for (const [displayName, email] of [
      ['Ann', 'ann@example.com'],
      ['Bob', 'bob@example.com'],
    ] as const) {
      const user = await call('POST', `${ADMIN}/users`, { displayName, email, password: 'correct horse' });
      expect(user.status).toBe(201);
      created.users.push(svcUserSchema.parse(user.body).id);
      t.clock.advance(1000);
    }
    const membership = await call('POST', `${ADMIN}/memberships`, {
      organizationId: created.organizations[0],
      userId: created.users[0],
      role: 'Owner',
    });
    expect(membership).toMatchObject({ status: 201, body: { role: 'owner' } });
    for (const clientId of ['web', 'backend']) {
      const client = await call('POST', `${ADMIN}/clients`, {
        clientId,
        name: clientId,
        audience: 'https://api.example.com',
        redirectUris: ['https://app.example.com/callback'],
        tokenEndpointAuthMethod: clientId === 'backend' ? 'client_secret_basic' : 'none',
      });
      expect(client.status).toBe(201);
      const parsed = svcCreatedClientSchema.parse(client.body);
      created.clients.push(parsed.id);
      if (parsed.clientSecret !== undefined) clientSecret = parsed.clientSecret;
      t.clock.advance(1000);
    }
    expect(clientSecret).not.toBe('');

    // Newest first, every row exactly once.
    expect(await walk(`${ADMIN}/organizations`, svcOrganizationSchema)).toEqual(
      [...created.organizations].reverse(),
    );
    expect(await walk(`${ADMIN}/users`, svcUserSchema.strict())).toEqual([...created.users].reverse());
    expect(await walk(`${ADMIN}/clients`, svcClientSchema.strict())).toEqual([...created.clients].reverse());
  });

  const update = {
    refreshTokenLifetimeMinutes: 600,
    sessionIdleTimeoutMinutes: 120,
    sessionAbsoluteLifetimeMinutes: 1440,
    signingKeyRotationIntervalDays: 30,
    signingKeyGraceWindowDays: 5,
    signingKeyRetiredCleanupDays: 10,
  };

  it('reads and updates the security settings', async () => {
    const current = await call('GET', `${ADMIN}/settings/security`);
    expect(svcSecuritySettingsSchema.strict().parse(current.body)).toEqual(DEFAULT_SECURITY_SETTINGS);

    for (const graceDays of [30, 31]) {
      const refused = await call('PUT', `${ADMIN}/settings/security`, {
        ...update,
        signingKeyGraceWindowDays: graceDays,
      });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        error: 'invalid_request',
        message: expect.stringMatching(/signingKeyGraceWindowDays/),
        details: [expect.objectContaining({ path: 'signingKeyGraceWindowDays' })],
      });
    }
    expect((await call('GET', `${ADMIN}/settings/security`)).body).toEqual(current.body);

    const saved = await call('PUT', `${ADMIN}/settings/security`, update);
    expect(saved).toEqual({ status: 200, body: { ...update, refreshTokenGraceWindowSeconds: 30 } });
    expect((await call('GET', `${ADMIN}/settings/security`)).body).toEqual(saved.body);
    expect(await t.svc.securitySettings.get()).toEqual(saved.body);
  });

  it('recorded every operation in the audit log, and no secret', async () => {
    const page = auditEventPageSchema.parse(
      (await call('GET', `${AUDIT}/events?kind=admin.*&limit=200`)).body,
    );
    const kinds = page.data.map((event) => event.kind).sort();
    expect(kinds).toEqual([
      'admin.client.created',
      'admin.client.created',
      'admin.membership.created',
      'admin.organization.created',
      'admin.organization.created',
      'admin.security_settings.updated',
      'admin.user.created',
      'admin.user.created',
    ]);
    for (const event of page.data) expect(event).toMatchObject({ actorType: 'operator' });
    expect(page.data[0]).toMatchObject({ kind: 'admin.security_settings.updated', data: update });
    const text = JSON.stringify(page);
    expect(text).not.toContain(clientSecret);
    expect(text).not.toContain('correct horse');

    const clients = auditEventPageSchema.parse(
      (await call('GET', `${AUDIT}/events?kind=admin.client.created`)).body,
    );
    expect(clients.data.map((event) => event.clientId)).toEqual(['backend', 'web']);
    expect((await call('GET', `${AUDIT}/events?kind=oauth.*`)).body).toEqual({ data: [], nextCursor: null });

    // The export with the operator token: the same events, one JSON line each, newest first.
    const exported = await t.svc.app.inject({
      method: 'GET',
      url: `${AUDIT}/events/export?kind=admin.*`,
      headers: t.operator,
    });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-disposition']).toMatch(
      /^attachment; filename="svc-audit-\d{4}-\d{2}-\d{2}\.jsonl"$/,
    );
    expect(
      exported.body
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual(page.data);
  });
});

import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../test-support/databases.js';
import { scimTenant } from '../test-support/scim.js';
import { createTestSvc, TEST_ADMIN_TOKEN, type TestSvc } from '../test-support/test-svc.js';

/**
 * Path segments no record id can hold: a NUL (PostgreSQL refuses it in a query), a control character
 * inside an id (a trailing one is trimmed), bytes that are not UTF-8, and an encoded lone surrogate.
 * Fastify answers 414 for a path parameter over 100 characters before any handler runs.
 */
const BAD_SEGMENTS = ['%00', 'x%00y', 'x%0Ay', '%FF%FE', '%ED%A0%80'];

/** Query parameters Svc's routes read, each given a NUL and then 3,000 characters in one request. */
const QUERY_KEYS = [
  'cursor',
  'limit',
  'filter',
  'startIndex',
  'count',
  'attributes',
  'kind',
  'since',
  'until',
  'userId',
  'organizationId',
  'resourceId',
  'subjectId',
  'typeId',
  'parentId',
  'client_id',
  'redirect_uri',
  'state',
  'token',
  'code',
  'user_code',
  'return_to',
];
const BAD_QUERY_VALUES = ['%00', 'x'.repeat(3000)];

interface Route {
  readonly method: string;
  readonly url: string;
}

/**
 * The rule for bad input (docs/reference/errors.md) over every route Svc mounts, as the operator (and for
 * SCIM, as the connection's bearer): ids in the path that no record can have and hostile query strings are a
 * 4xx, never a 5xx, on both databases. The routes are read from Fastify as the app registers them, so a
 * route added later is covered without being listed here.
 */
describeEachDatabase('every route refuses malformed paths and queries', (kind) => {
  let t: TestSvc;
  let host: FastifyInstance;
  let scimToken: string;
  const routes: Route[] = [];
  /** Real ids for the parameters that name them, so that a second parameter is reached. */
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestSvc(kind, { calendar: { enabled: true } });
    // Svc mounted in a host app, as an embedding does: the host's hook sees every route registered.
    host = Fastify();
    host.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) {
        if (method !== 'HEAD' && method !== 'OPTIONS') routes.push({ method, url: route.url });
      }
    });
    await host.register(t.svc.plugin);
    await host.ready();
    const tenant = await scimTenant(t);
    scimToken = tenant.token;
    const user = await t.svc.admin.createUserAsync({ displayName: 'Ann', email: 'ann@example.com' });
    const membership = await t.svc.admin.createMembershipAsync({
      organizationId: tenant.organizationId,
      userId: user.id,
      role: 'member',
    });
    Object.assign(ids, {
      organizationId: tenant.organizationId,
      userId: user.id,
      membershipId: membership.id,
      connectionId: tenant.connectionId,
    });
  });
  afterAll(async () => {
    await host?.close();
    await t?.close();
  });

  const call = async (method: string, url: string) => {
    const response = await host.inject({
      method: method as 'GET',
      url,
      headers: {
        authorization: `Bearer ${url.startsWith('/svc/scim/') ? scimToken : TEST_ADMIN_TOKEN}`,
        ...(method === 'GET' ? {} : { 'content-type': 'application/json' }),
      },
      ...(method === 'GET' ? {} : { payload: '{}' }),
    });
    return `${response.statusCode} ${method} ${url.slice(0, 120)}`;
  };
  const serverErrors = (answers: string[]) => answers.filter((answer) => answer.startsWith('5'));

  it('reads the routes of every surface', () => {
    const urls = new Set(routes.map((route) => route.url));
    expect(routes.length).toBeGreaterThan(200);
    for (const url of [
      '/svc/auth/token',
      '/svc/admin/auth/api/invitations/:id/revoke',
      '/svc/scim/v2/Users/:id',
      '/svc/admin/fga/api/resources/:id',
      '/svc/admin/calendar/api/connections/:id/revoke',
    ]) {
      expect(urls).toContain(url);
    }
  });

  it('answers an id no record can have with a 4xx on every route', async () => {
    const answers: string[] = [];
    for (const route of routes) {
      const names = [...route.url.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]!);
      for (const name of names) {
        for (const bad of BAD_SEGMENTS) {
          const url = route.url.replace(/:([A-Za-z]+)/g, (_whole, other: string) =>
            other === name ? bad : (ids[other] ?? 'x'),
          );
          answers.push(await call(route.method, url));
        }
      }
    }
    expect(answers.length).toBeGreaterThan(500);
    expect(serverErrors(answers)).toEqual([]);
  });

  it('answers hostile query strings with a 4xx or as if absent on every route', async () => {
    const answers: string[] = [];
    for (const route of routes) {
      const url = route.url.replace(/:([A-Za-z]+)/g, (_whole, name: string) => ids[name] ?? 'x');
      for (const value of BAD_QUERY_VALUES) {
        answers.push(
          await call(route.method, `${url}?${QUERY_KEYS.map((key) => `${key}=${value}`).join('&')}`),
        );
      }
    }
    expect(serverErrors(answers)).toEqual([]);
  });
});

import { auditEventPageSchema } from '@svc/contract';
import fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { randomIds } from '../kernel/ids.js';
import { openDatabase, type DatabaseHandle } from '../storage/database.js';
import { auditEventsRepository } from '../storage/repositories/audit-events.js';
import { createTestDatabase, type TestDatabase } from '../test-support/databases.js';
import { FakeClock } from '../test-support/fake-clock.js';
import { createAuditLog, type AuditService } from './audit-service.js';
import { auditApiRoutes } from './routes.js';

describe('GET /svc/admin/audit/api/events', () => {
  let testDb: TestDatabase;
  let handle: DatabaseHandle;
  let clock: FakeClock;
  let audit: AuditService;
  let app: FastifyInstance;

  const get = async (query: string) => {
    const response = await app.inject({ method: 'GET', url: `/svc/admin/audit/api/events${query}` });
    return {
      status: response.statusCode,
      headers: response.headers,
      body: response.json<Record<string, unknown>>(),
    };
  };

  beforeEach(async () => {
    testDb = await createTestDatabase('sqlite', 'migrated');
    handle = openDatabase(testDb.target);
    clock = new FakeClock();
    audit = createAuditLog({ repository: auditEventsRepository(handle.db), clock, ids: randomIds });
    app = fastify();
    await app.register(auditApiRoutes({ audit }), { prefix: '/svc/admin/audit/api' });
  });
  afterEach(async () => {
    await app.close();
    await handle.close();
    await testDb.drop();
  });

  it('answers a filtered page in the contract shape, newest first, not cacheable', async () => {
    await audit.record({
      kind: 'admin.organization.created',
      actorType: 'operator',
      actorId: 'op_1',
      organizationId: 'org_1',
      data: { name: 'Acme' },
    });
    clock.advance(1000);
    await audit.record({
      kind: 'admin.user.created',
      actorType: 'operator',
      actorId: 'op_1',
      userId: 'usr_1',
    });
    clock.advance(1000);
    await audit.record({
      kind: 'oauth.direct_login.rejected',
      clientId: 'third-party',
      ipAddress: '127.0.0.1',
    });

    const all = await get('');
    expect(all.status).toBe(200);
    expect(all.headers['cache-control']).toBe('no-store');
    const page = auditEventPageSchema.parse(all.body);
    expect(page.data.map((e) => e.kind)).toEqual([
      'oauth.direct_login.rejected',
      'admin.user.created',
      'admin.organization.created',
    ]);
    expect(page.data[2]).toMatchObject({
      occurredAt: '2026-01-01T12:00:00.000Z',
      actorType: 'operator',
      organizationId: 'org_1',
      userId: null,
      data: { name: 'Acme' },
    });

    const admin = auditEventPageSchema.parse((await get('?kind=admin.*&limit=1')).body);
    expect(admin.data.map((e) => e.kind)).toEqual(['admin.user.created']);
    expect(admin.nextCursor).not.toBeNull();
    const next = auditEventPageSchema.parse(
      (await get(`?kind=admin.*&limit=1&cursor=${admin.nextCursor}`)).body,
    );
    expect(next).toMatchObject({ data: [{ kind: 'admin.organization.created' }], nextCursor: null });

    const window = auditEventPageSchema.parse(
      (await get('?from=2026-01-01T12:00:01Z&to=2026-01-01T12:00:02Z')).body,
    );
    expect(window.data.map((e) => e.kind)).toEqual(['admin.user.created']);
  });

  it.each([
    ['?limit=0', 'limit'],
    ['?limit=201', 'limit'],
    ['?limit=abc', 'limit'],
    ['?from=notadate', 'ISO 8601'],
    ['?to=2026-01-01', 'ISO 8601'],
    ['?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z', 'from: must be before to'],
    ['?from=2026-01-01T00:00:00Z&to=2026-01-01T00:00:00Z', 'from: must be before to'],
    ['?cursor=', 'cursor'],
    ['?cursor=not-a-cursor', 'cursor'],
    [`?cursor=${Buffer.from('[1,2]').toString('base64url')}`, 'cursor'],
    ['?kind=Admin.*', 'kind'],
    ['?kind=admin%25', 'kind'],
    ['?kind=a&kind=b', 'kind'],
  ])('answers 400 with a clear message for %s', async (query, mentions) => {
    const response = await get(query);
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_request');
    expect(String(response.body.message)).toContain(mentions);
    expect(response.headers['cache-control']).toBe('no-store');
  });
});

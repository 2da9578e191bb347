import { auditEventPageSchema, auditEventSchema, auditSummarySchema } from '@svc/contract';
import fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { randomIds } from '../kernel/ids.js';
import { openDatabase, type DatabaseHandle } from '../storage/database.js';
import { auditEventsRepository } from '../storage/repositories/audit-events.js';
import { createTestDatabase, type TestDatabase } from '../test-support/databases.js';
import { FakeClock } from '../test-support/fake-clock.js';
import { createAuditLog, type AuditService } from './audit-service.js';
import type { AuditRepository } from './repository.js';
import { auditApiRoutes } from './routes.js';
import { createAuditSummary } from './summary.js';

describe('GET /svc/admin/audit/api/events', () => {
  let testDb: TestDatabase;
  let handle: DatabaseHandle;
  let clock: FakeClock;
  let audit: AuditService;
  let app: FastifyInstance;
  let logged: string[];

  /** The API over `repository`, its export cut at 5 events and read 2 at a time. */
  const serve = async (repository: AuditRepository) => {
    await app.close();
    logged = [];
    app = fastify({
      logger: { level: 'warn', stream: { write: (line: string) => void logged.push(line) } },
    });
    const reader = createAuditLog({
      repository,
      clock,
      ids: randomIds,
      exportLimits: { maxEvents: 5, pageSize: 2 },
    });
    const summary = createAuditSummary({
      repository,
      sessions: { countUsableAt: async (instants) => instants.map(() => 3) },
      clock,
    });
    await app.register(auditApiRoutes({ audit: reader, summary, clock }), { prefix: '/svc/admin/audit/api' });
  };

  const get = async (query: string) => {
    const response = await app.inject({ method: 'GET', url: `/svc/admin/audit/api/events${query}` });
    const json = String(response.headers['content-type']).startsWith('application/json');
    return {
      status: response.statusCode,
      headers: response.headers,
      body: json ? response.json<Record<string, unknown>>() : {},
      text: response.body,
    };
  };

  beforeEach(async () => {
    testDb = await createTestDatabase('sqlite', 'migrated');
    handle = openDatabase(testDb.target);
    clock = new FakeClock();
    audit = createAuditLog({ repository: auditEventsRepository(handle.db), clock, ids: randomIds });
    app = fastify();
    await serve(auditEventsRepository(handle.db));
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
    ['?kind=admin.*,,oauth.*', 'kind'],
    ['?kind=admin.*,Oauth.x', 'kind'],
    [`?kind=${Array.from({ length: 21 }, (_, i) => `k${i}`).join(',')}`, 'kind'],
    ['?userId=', 'userId'],
    ['?subjectId=a%00b', 'subjectId'],
    ['/export?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z', 'from: must be before to'],
    ['/export?clientId=', 'clientId'],
    ['/summary?window=30d', 'window'],
  ])('answers 400 with a clear message for %s', async (query, mentions) => {
    // A query of the list, or a path below /events with its query.
    const response = await get(query);
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_request');
    expect(String(response.body.message)).toContain(mentions);
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('answers one event by id, and 404 not_found for an unknown id', async () => {
    await audit.record({
      kind: 'admin.membership.created',
      organizationId: 'org_1',
      data: { membershipId: 'mem_1' },
    });
    const [listed] = auditEventPageSchema.parse((await get('')).body).data;
    const one = await get(`/${listed?.id ?? ''}`);
    expect(one.status).toBe(200);
    expect(one.headers['cache-control']).toBe('no-store');
    expect(auditEventSchema.parse(one.body)).toEqual(listed);
    expect(listed?.subjectId).toBe('mem_1');
    const missing = await get('/aud_missing');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('not_found');
  });

  it('exports the filtered events as JSON lines, newest first, paged inside and cut at the cap', async () => {
    for (let i = 0; i < 7; i++) {
      await audit.record({ kind: i % 2 === 0 ? 'test.even' : 'test.odd', userId: 'usr_1', data: { i } });
      clock.advance(1000);
    }
    await audit.record({ kind: 'test.even', userId: 'usr_2', data: { i: 99 } });
    const lines = (text: string) =>
      text
        .trimEnd()
        .split('\n')
        .map((line) => auditEventSchema.parse(JSON.parse(line)));

    const filtered = await get('/export?kind=test.even&userId=usr_1');
    expect(filtered.status).toBe(200);
    expect(filtered.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(filtered.headers['content-disposition']).toBe('attachment; filename="svc-audit-2026-01-01.jsonl"');
    expect(filtered.headers['cache-control']).toBe('no-store');
    expect(lines(filtered.text).map((e) => e.data.i)).toEqual([6, 4, 2, 0]);
    expect(filtered.text.endsWith('\n')).toBe(true);

    // Eight match; the export reads them two at a time and stops at its cap of five.
    expect(lines((await get('/export')).text).map((e) => e.data.i)).toEqual([99, 6, 5, 4, 3]);
    expect((await get('/export?kind=nothing.*')).text).toBe('');
  });

  it('ends the export without its last chunk when the database fails mid-stream, and keeps serving', async () => {
    for (let i = 0; i < 4; i++) await audit.record({ kind: 'test.tick', data: { i } });
    const real = auditEventsRepository(handle.db);
    let calls = 0;
    await serve({
      ...real,
      list: (filter, page) => {
        calls += 1;
        return calls === 2 ? Promise.reject(new Error('connection lost')) : real.list(filter, page);
      },
    });
    const response = await app
      .inject({ method: 'GET', url: '/svc/admin/audit/api/events/export' })
      .catch((error: unknown) => error);
    // Two lines went out, then the connection was cut: the client sees an incomplete download.
    expect(response).toMatchObject({ code: 'LIGHT_ECONNRESET' });
    expect(logged.join('')).toContain('response terminated with an error');
    expect(logged.join('')).toContain('connection lost');
    // The process and the API carry on.
    expect((await get('')).status).toBe(200);
    const failedFirst = await serve({ ...real, list: () => Promise.reject(new Error('down')) }).then(() =>
      get('/export'),
    );
    expect(failedFirst.status).toBe(500);
  });

  it('answers the summary in its contract shape', async () => {
    const summary = await get('/summary?window=7d');
    expect(summary.status).toBe(200);
    expect(summary.headers['cache-control']).toBe('no-store');
    expect(auditSummarySchema.parse(summary.body)).toMatchObject({
      window: '7d',
      bucket: 'day',
      activeSessions: 3,
    });
    expect(auditSummarySchema.parse((await get('/summary')).body).buckets).toHaveLength(24);
  });
});

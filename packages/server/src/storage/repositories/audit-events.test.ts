import { auditEventQuerySchema, type AuditEventQueryInput } from '@svc/contract';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createAuditLog, type AuditLogger, type AuditService } from '../../audit/audit-service.js';
import type { AuditRecord, AuditRepository } from '../../audit/repository.js';
import { SvcError } from '../../kernel/errors.js';
import type { Ids } from '../../kernel/ids.js';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../../test-support/databases.js';
import { FakeClock } from '../../test-support/fake-clock.js';
import { openDatabase, type DatabaseHandle } from '../database.js';
import { auditEventsRepository } from './audit-events.js';
import { escapeLike } from './search.js';

/** Ids that count up, so that the order among equal timestamps is known to the test. */
function countingIds(): Ids {
  let n = 0;
  return { id: (prefix) => `${prefix}_${String(++n).padStart(4, '0')}`, secret: () => 'not-used' };
}

describeEachDatabase('audit events', (kind) => {
  let testDb: TestDatabase;
  let handle: DatabaseHandle;
  let repository: AuditRepository;
  let clock: FakeClock;
  let warnings: Record<string, unknown>[];
  let audit: AuditService;

  const list = (query: AuditEventQueryInput = {}) => audit.list(auditEventQuerySchema.parse(query));
  const kinds = (records: readonly AuditRecord[]) => records.map((r) => r.kind);

  beforeEach(async () => {
    testDb = await createTestDatabase(kind, 'migrated');
    handle = openDatabase(testDb.target);
    repository = auditEventsRepository(handle.db);
    clock = new FakeClock();
    warnings = [];
    const logger: AuditLogger = { warn: (details) => warnings.push(details) };
    audit = createAuditLog({ repository, clock, ids: countingIds(), logger });
  });
  afterEach(async () => {
    await handle.close();
    await testDb.drop();
  });

  it('appends an event and reads every field back', async () => {
    await audit.record({
      kind: 'oauth.direct_login.rejected',
      actorType: 'client',
      actorId: 'cli_1',
      organizationId: 'org_1',
      userId: 'usr_1',
      clientId: 'third-party',
      ipAddress: '203.0.113.7',
      data: { route: '/svc/auth/password/login', attempt: 2, ok: false, nested: { list: [1, 'two', null] } },
    });
    await audit.record({ kind: 'system.started' });
    const page = await list();
    expect(page.nextCursor).toBeNull();
    expect(page.data).toHaveLength(2);
    const [started, rejected] = page.data;
    expect(started).toEqual({
      id: 'aud_0002',
      kind: 'system.started',
      occurredAt: clock.now(),
      actorType: null,
      actorId: null,
      organizationId: null,
      userId: null,
      clientId: null,
      subjectId: null,
      ipAddress: null,
      data: {},
    });
    expect(rejected).toEqual({
      id: 'aud_0001',
      kind: 'oauth.direct_login.rejected',
      occurredAt: clock.now(),
      actorType: 'client',
      actorId: 'cli_1',
      organizationId: 'org_1',
      userId: 'usr_1',
      clientId: 'third-party',
      subjectId: 'usr_1',
      ipAddress: '203.0.113.7',
      data: { route: '/svc/auth/password/login', attempt: 2, ok: false, nested: { list: [1, 'two', null] } },
    });
    expect(await repository.find('aud_0001')).toEqual(rejected);
    expect(await repository.find('aud_9999')).toBeUndefined();
  });

  it('records the subject an event is about: the given one, the one its kind keeps in data, else its records', async () => {
    const subjects = async (...events: Parameters<AuditService['record']>[0][]) => {
      for (const event of events) await audit.record(event);
      const { data } = await list({ limit: events.length });
      return data.reverse().map((r) => r.subjectId);
    };
    expect(
      await subjects(
        {
          kind: 'admin.membership.updated',
          organizationId: 'org_1',
          userId: 'usr_1',
          data: { membershipId: 'mem_1' },
        },
        { kind: 'admin.scim_connection.enabled', organizationId: 'org_1', data: { connectionId: 'scim_1' } },
        { kind: 'admin.scim_mapping.created', data: { connectionId: 'scim_1', mappingId: 'map_1' } },
        { kind: 'oidc.authorization.completed', userId: 'usr_2', data: { connectionId: 'oidc_1' } },
        { kind: 'calendar.connection.created', userId: 'usr_2', data: { calendarConnectionId: 'cal_1' } },
        { kind: 'fga.group.member_added', data: { groupId: 'grp_1', userId: 'usr_3' } },
        { kind: 'fga.grant.created', data: { id: 'fgr_1', resourceId: 'res_1' } },
        { kind: 'admin.sessions.revoked', userId: 'usr_4', data: { selector: { sessionId: 'ses_1' } } },
        { kind: 'admin.sessions.revoked', organizationId: 'org_2', data: { selector: {} } },
        { kind: 'admin.client.created', clientId: 'web' },
        { kind: 'admin.email_template.updated', subjectId: 'auth.email-otp', data: { templateKey: 'x' } },
        { kind: 'admin.security_settings.updated', data: { id: 'not-a-subject' } },
      ),
    ).toEqual([
      'mem_1',
      'scim_1',
      'map_1',
      'usr_2',
      'cal_1',
      'grp_1',
      'fgr_1',
      'ses_1',
      'org_2',
      'web',
      'auth.email-otp',
      null,
    ]);
  });

  it('filters by actor, organization, user, client and subject, combined with kinds and the window, paging on', async () => {
    const start = clock.now();
    type Fields = Partial<Record<'actorId' | 'organizationId' | 'userId' | 'clientId', string>>;
    const rows: [kind: string, fields: Fields, data?: Record<string, string>][] = [
      ['admin.user.created', { actorId: 'op_1', userId: 'usr_1' }],
      ['oauth.hosted_login.succeeded', { actorId: 'usr_1', userId: 'usr_1', clientId: 'web' }],
      ['oauth.hosted_login.failed', { clientId: 'web' }],
      [
        'admin.membership.created',
        { actorId: 'op_1', organizationId: 'org_1', userId: 'usr_1' },
        { membershipId: 'mem_1' },
      ],
      ['oauth.direct_login.succeeded', { actorId: 'usr_2', userId: 'usr_2', clientId: 'app' }],
      ['admin.organization.created', { actorId: 'op_2', organizationId: 'org_1' }],
    ];
    for (const [k, fields, data] of rows) {
      await audit.record({ kind: k, ...fields, ...(data === undefined ? {} : { data }) });
      clock.advance(1000);
    }
    const iso = (ms: number) => new Date(ms).toISOString();
    expect(kinds((await list({ actorId: 'op_1' })).data)).toEqual([
      'admin.membership.created',
      'admin.user.created',
    ]);
    expect(kinds((await list({ organizationId: 'org_1', actorId: 'op_2' })).data)).toEqual([
      'admin.organization.created',
    ]);
    expect(kinds((await list({ clientId: 'web', kind: 'oauth.hosted_login.*' })).data)).toEqual([
      'oauth.hosted_login.failed',
      'oauth.hosted_login.succeeded',
    ]);
    expect(kinds((await list({ subjectId: 'usr_1' })).data)).toEqual([
      'oauth.hosted_login.succeeded',
      'admin.user.created',
    ]);
    expect(kinds((await list({ subjectId: 'org_1' })).data)).toEqual(['admin.organization.created']);
    expect(kinds((await list({ subjectId: 'mem_1', organizationId: 'org_1' })).data)).toEqual([
      'admin.membership.created',
    ]);
    // A list of kinds and prefixes: any of them.
    expect(
      kinds((await list({ kind: 'oauth.direct_login.succeeded,admin.*', userId: 'usr_1' })).data),
    ).toEqual(['admin.membership.created', 'admin.user.created']);
    expect(
      kinds((await list({ kind: 'oauth.hosted_login.succeeded,oauth.direct_login.succeeded' })).data),
    ).toEqual(['oauth.direct_login.succeeded', 'oauth.hosted_login.succeeded']);
    const windowed = { userId: 'usr_1', from: iso(start + 1000), to: iso(start + 4000) };
    const first = await list({ ...windowed, limit: 1 });
    expect(kinds(first.data)).toEqual(['admin.membership.created']);
    const second = await list({ ...windowed, limit: 1, cursor: first.nextCursor ?? '' });
    expect(kinds(second.data)).toEqual(['oauth.hosted_login.succeeded']);
    expect(second.nextCursor).toBeNull();
    expect((await list({ userId: 'usr_9' })).data).toEqual([]);
  });

  it('filters by exact kind and by a prefix whose _ is not a wildcard', async () => {
    for (const k of [
      'admin.organization.created',
      'admin.user.created',
      'administrator.x',
      'admin',
      'oauth.direct_login.rejected',
      'oauth.directxlogin.rejected',
    ]) {
      await audit.record({ kind: k });
      clock.advance(1);
    }
    expect(kinds((await list({ kind: 'admin.user.created' })).data)).toEqual(['admin.user.created']);
    expect(kinds((await list({ kind: 'admin.*' })).data)).toEqual([
      'admin.user.created',
      'admin.organization.created',
    ]);
    expect(kinds((await list({ kind: 'oauth.direct_login.*' })).data)).toEqual([
      'oauth.direct_login.rejected',
    ]);
    expect(kinds((await list({ kind: 'admin' })).data)).toEqual(['admin']);
    expect((await list({ kind: 'nothing.*' })).data).toEqual([]);
  });

  it('escapes every LIKE wildcard and the escape character itself', () => {
    expect(escapeLike('a_b%c\\d')).toBe('a\\_b\\%c\\\\d');
    expect(escapeLike('admin.')).toBe('admin.');
  });

  it('filters a time window, from inclusive and to exclusive', async () => {
    const start = clock.now();
    for (let i = 0; i < 5; i++) {
      await audit.record({ kind: 'test.tick', data: { i } });
      clock.advance(60_000);
    }
    const iso = (ms: number) => new Date(ms).toISOString();
    const page = await list({ from: iso(start + 60_000), to: iso(start + 3 * 60_000) });
    expect(page.data.map((r) => r.data.i)).toEqual([2, 1]);
    expect((await list({ from: iso(start + 4 * 60_000) })).data.map((r) => r.data.i)).toEqual([4]);
    expect((await list({ to: iso(start + 1) })).data.map((r) => r.data.i)).toEqual([0]);
    // An offset is the same instant as its UTC spelling.
    const offset = new Date(start + 60_000 + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
    expect((await list({ from: offset, kind: 'test.tick' })).data).toHaveLength(4);
  });

  it('pages through equal timestamps without duplicates or gaps, newest first', async () => {
    // Seven events in the same millisecond, two older ones: three pages of three.
    clock.advance(-1);
    await audit.record({ kind: 'test.old', data: { n: 0 } });
    await audit.record({ kind: 'test.old', data: { n: 1 } });
    clock.advance(1);
    for (let n = 2; n < 9; n++) await audit.record({ kind: 'test.same', data: { n } });

    const seen: AuditRecord[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await list(cursor === undefined ? { limit: 3 } : { limit: 3, cursor });
      seen.push(...page.data);
      pages++;
      cursor = page.nextCursor ?? undefined;
      // An event recorded while paging is newer than every cursor: it never shifts the pages.
      await audit.record({ kind: 'test.later' });
    } while (cursor !== undefined);

    expect(pages).toBe(3);
    expect(seen.map((r) => r.data.n)).toEqual([8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect(new Set(seen.map((r) => r.id)).size).toBe(9);
  });

  it('ends with a null cursor when the last page is exactly full', async () => {
    for (let i = 0; i < 4; i++) await audit.record({ kind: 'test.tick' });
    const first = await list({ limit: 2 });
    expect(first.nextCursor).not.toBeNull();
    const second = await list({ limit: 2, cursor: first.nextCursor ?? '' });
    expect(second.data).toHaveLength(2);
    expect(second.nextCursor).toBeNull();
  });

  it('redacts secret-named keys at any depth before they reach storage, and says where', async () => {
    await audit.record({
      kind: 'test.leaky',
      data: {
        Password: 'hunter2',
        client_secret: 'cs',
        nested: { refreshToken: 'rt', ACCESS_TOKEN: 'at', codeVerifier: 'cv', errorCode: 'E42' },
        list: [{ code: 'auth-code', tokenEndpointAuthMethod: 'none' }],
        emptyToken: null,
      },
    });
    const row = await handle.db.selectFrom('auditEvents').select('dataJson').executeTakeFirstOrThrow();
    for (const secret of ['hunter2', '"cs"', '"rt"', '"at"', '"cv"', 'auth-code'])
      expect(row.dataJson).not.toContain(secret);
    const [event] = (await list()).data;
    expect(event?.data).toEqual({
      Password: '[redacted]',
      client_secret: '[redacted]',
      nested: {
        refreshToken: '[redacted]',
        ACCESS_TOKEN: '[redacted]',
        codeVerifier: '[redacted]',
        errorCode: 'E42',
      },
      list: [{ code: '[redacted]', tokenEndpointAuthMethod: 'none' }],
      emptyToken: null,
    });
    expect(warnings).toEqual([
      {
        kind: 'test.leaky',
        redactedPaths: [
          'Password',
          'client_secret',
          'nested.refreshToken',
          'nested.ACCESS_TOKEN',
          'nested.codeVerifier',
          'list[0].code',
        ],
      },
    ]);
  });

  it('rejects a kind that is not a lower-case dotted name, and stores nothing', async () => {
    for (const bad of ['Admin.Created', 'admin..x', 'admin.*', '', 'a b']) {
      await expect(audit.record({ kind: bad })).rejects.toBeInstanceOf(SvcError);
    }
    expect((await list()).data).toEqual([]);
  });

  it('propagates a failed write as an unexposed 500 naming the kind', async () => {
    // Connected first: closing a handle that never connected closes nothing (Kysely connects lazily).
    await list();
    await handle.close();
    const error = await audit.record({ kind: 'test.lost' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcError);
    expect(error).toMatchObject({
      status: 500,
      expose: false,
      message: 'Could not record the audit event test.lost.',
    });
    // Reopen so that afterEach can close and drop as usual.
    handle = openDatabase(testDb.target);
  });

  it('exposes no way to change or remove an event', () => {
    expect(Object.keys(repository).sort()).toEqual(['append', 'countByBucket', 'find', 'list']);
  });
});

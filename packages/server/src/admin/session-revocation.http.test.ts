import {
  pageSchema,
  svcAdminSessionRevocationPreviewSchema,
  svcAdminSessionRevocationResultSchema,
  svcSessionSchema,
} from '@svc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { NOT_FOUND_BODY } from '../http/errors.js';
import { describeAboveStorage, describeEachDatabase } from '../test-support/databases.js';
import { createDirectHarness, type DirectHarness } from '../test-support/direct-test-app.js';
import { operatorApi } from '../test-support/operator-api.js';
import { endedSession, probeSession, type HeldTokens } from '../test-support/session-probe.js';
import { createTestSvc, type TestSvc } from '../test-support/test-svc.js';

const ADMIN = '/svc/admin/auth/api';
const LIVE = { userinfo: 200, validated: true, refresh: 'ok' };
const sessionPage = pageSchema(svcSessionSchema.strict());

describeAboveStorage('operator sessions: list, revocation preview and revocation', (kind) => {
  let h: DirectHarness;
  beforeAll(async () => {
    h = await createDirectHarness(kind);
  });
  afterAll(() => h.close());
  const api = operatorApi(ADMIN, () => h.t);

  const signIn = async (email: string, clientId: string, organizationId?: string): Promise<HeldTokens> => {
    const { tokens } = await h.login(email, clientId, organizationId);
    if (tokens === null) throw new Error('the login did not complete');
    return tokens;
  };
  /** A user signed in twice at `a` and once at `b`, and a bystander signed in at `a`. */
  const given = async () => {
    const a = await h.given.client();
    const b = await h.given.client();
    const user = await h.given.user();
    const bystander = await h.given.user();
    return {
      a,
      b,
      user,
      atA: [await signIn(user.email, a.clientId), await signIn(user.email, a.clientId)],
      atB: await signIn(user.email, b.clientId),
      bystanderAtA: await signIn(bystander.email, a.clientId),
    };
  };
  const list = async (query: string) => {
    const response = await api('GET', `/sessions?${query}`);
    expect(response.status, response.text).toBe(200);
    return sessionPage.parse(response.body);
  };
  const revokedEvents = async (userId: string) =>
    (await h.events('admin.sessions.revoked')).filter((event) => event.userId === userId);

  it('lists sessions newest first, filtered, paged, never with a token', async () => {
    const { a, b, user } = await given();
    const all = await list(`userId=${user.id}`);
    expect(all.data).toHaveLength(3);
    expect(all.data.map((s) => s.clientId)).toEqual([b.clientId, a.clientId, a.clientId]);
    expect(all.data[0]).toMatchObject({
      userId: user.id,
      organizationId: null,
      authenticationMethods: ['pwd'],
      active: true,
      revokedAt: null,
      revokedReason: null,
      createdAt: new Date(h.t.clock.now()).toISOString(),
    });
    expect(JSON.stringify(all)).not.toMatch(/token|hash/i);

    // The client by its clientId or its record id, AND-combined with the user.
    const atA = await list(`userId=${user.id}&clientId=${a.clientId}`);
    expect(atA.data.map((s) => s.id)).toEqual(all.data.slice(1).map((s) => s.id));
    expect(await list(`userId=${user.id}&clientId=${a.record.id}`)).toEqual(atA);
    expect((await list(`clientId=${a.clientId}`)).data).toHaveLength(3);

    const first = await list(`userId=${user.id}&limit=2`);
    expect(first.data).toEqual(all.data.slice(0, 2));
    const second = await list(`userId=${user.id}&limit=2&cursor=${first.nextCursor ?? ''}`);
    expect(second).toEqual({ data: all.data.slice(2), nextCursor: null });
    expect((await list(`userId=${user.id}&active=false`)).data).toEqual([]);
  });

  it('previews without revoking, then revokes at once: refresh invalid_grant, validation null', async () => {
    const { a, b, user, atA, atB, bystanderAtA } = await given();
    const selector = { userId: user.id, clientApplicationId: a.clientId };
    const preview = await api('POST', '/sessions/revocation/preview', selector);
    expect(preview.status, preview.text).toBe(200);
    expect(svcAdminSessionRevocationPreviewSchema.strict().parse(preview.body)).toEqual({
      matchedSessions: 2,
      activeRefreshTokens: 2,
      activeBrowserSessions: 0,
    });
    const probed = await probeSession(h.t.svc, atA[0]!, a);
    expect(probed).toMatchObject(LIVE);
    const held = [probed.next!, atA[1]!];
    // The probe's refresh rotated one token: still two usable (the consumed one is not counted).
    expect((await api('POST', '/sessions/revocation/preview', selector)).body).toEqual(preview.body);

    const executed = await api('POST', '/sessions/revocation', {
      ...selector,
      confirm: true,
      expectedMatchedSessions: 2,
      reason: 'Laptop reported stolen',
    });
    expect(executed.status, executed.text).toBe(200);
    expect(svcAdminSessionRevocationResultSchema.strict().parse(executed.body)).toEqual({
      matchedSessions: 2,
      newlyRevokedSessions: 2,
      alreadyRevokedSessions: 0,
      newlyRevokedRefreshTokens: 2,
      endedBrowserSessions: 0,
    });
    for (const tokens of held) expect(await probeSession(h.t.svc, tokens, a)).toEqual(endedSession());
    expect(await probeSession(h.t.svc, bystanderAtA, a)).toMatchObject(LIVE);
    expect(await probeSession(h.t.svc, atB, b)).toMatchObject(LIVE);

    const sessions = await list(`userId=${user.id}&clientId=${a.clientId}`);
    for (const session of sessions.data) {
      expect(session).toMatchObject({
        active: false,
        revokedAt: new Date(h.t.clock.now()).toISOString(),
        revokedReason: 'admin_revoked',
      });
    }
    expect((await list(`userId=${user.id}&active=true`)).data.map((s) => s.clientId)).toEqual([b.clientId]);
    expect(await revokedEvents(user.id)).toEqual([
      expect.objectContaining({
        actorType: 'operator',
        clientId: a.clientId,
        data: {
          selector: { userId: user.id, clientId: a.clientId },
          reason: 'Laptop reported stolen',
          operationId: null,
          matchedSessions: 2,
          newlyRevokedSessions: 2,
          alreadyRevokedSessions: 0,
          newlyRevokedRefreshTokens: 2,
          endedBrowserSessions: 0,
        },
      }),
    ]);

    // Again, without an operation id: the same sessions, already revoked.
    const again = await api('POST', '/sessions/revocation', { ...selector, confirm: true });
    expect(again.body).toEqual({
      matchedSessions: 2,
      newlyRevokedSessions: 0,
      alreadyRevokedSessions: 2,
      newlyRevokedRefreshTokens: 0,
      endedBrowserSessions: 0,
    });
  });

  it('refuses without confirm, on a changed count, and answers nothing matched with the generic 404', async () => {
    const { a, user, atA } = await given();
    const selector = { userId: user.id, clientApplicationId: a.record.id };
    for (const confirm of [undefined, false]) {
      const refused = await api('POST', '/sessions/revocation', { ...selector, confirm });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        error: 'invalid_request',
        message: expect.stringContaining('confirm'),
      });
    }
    const changed = await api('POST', '/sessions/revocation', {
      ...selector,
      confirm: true,
      expectedMatchedSessions: 3,
    });
    expect(changed.status).toBe(409);
    expect(changed.body).toEqual({
      error: 'conflict',
      message: expect.stringMatching(/matches 2 sessions now, not the expectedMatchedSessions 3/),
    });
    expect(await probeSession(h.t.svc, atA[0]!, a)).toMatchObject(LIVE);

    const nobody = { userId: 'usr_nobody', confirm: true };
    expect(await api('POST', '/sessions/revocation/preview', nobody)).toMatchObject({
      status: 200,
      body: { matchedSessions: 0, activeRefreshTokens: 0, activeBrowserSessions: 0 },
    });
    expect(await api('POST', '/sessions/revocation', nobody)).toMatchObject({
      status: 404,
      body: NOT_FOUND_BODY,
    });
    const empty = await api('POST', '/sessions/revocation', { confirm: true, reason: 'all of them' });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toMatch(/sessionId, userId, organizationId, clientApplicationId/);
    expect(await revokedEvents(user.id)).toEqual([]);
  });

  it('combines organization and user with AND', async () => {
    const client = await h.given.client();
    const [one, two] = [await h.given.organization(), await h.given.organization()];
    const user = await h.given.user();
    const other = await h.given.user();
    for (const organization of [one, two]) {
      await h.given.membership(organization.id, user.id);
      await h.given.membership(organization.id, other.id);
    }
    const inOne = await signIn(user.email, client.clientId, one.id);
    const inTwo = await signIn(user.email, client.clientId, two.id);
    const otherInOne = await signIn(other.email, client.clientId, one.id);

    const result = await api('POST', '/sessions/revocation', {
      organizationId: one.id,
      userId: user.id,
      confirm: true,
    });
    expect(result.body).toMatchObject({ matchedSessions: 1, newlyRevokedSessions: 1 });
    expect(await probeSession(h.t.svc, inOne, client)).toEqual(endedSession());
    expect(await probeSession(h.t.svc, inTwo, client)).toMatchObject(LIVE);
    expect(await probeSession(h.t.svc, otherInOne, client)).toMatchObject(LIVE);
    expect((await list(`organizationId=${one.id}&active=true`)).data.map((s) => s.userId)).toEqual([
      other.id,
    ]);
  });

  it('answers a reused operation id with its first counts, and refuses it for another selector or reason', async () => {
    const { a, user, atA } = await given();
    const request = { userId: user.id, confirm: true, operationId: `op-${kind}-1`, reason: 'offboarding' };
    const first = await api('POST', '/sessions/revocation', request);
    expect(first.body).toMatchObject({ matchedSessions: 3, newlyRevokedSessions: 3 });

    // A new session of the same user is not revoked by the retry: the stored answer comes back.
    const later = await signIn(user.email, a.clientId);
    const retry = await api('POST', '/sessions/revocation', { ...request, expectedMatchedSessions: 4 });
    expect(retry).toMatchObject({ status: 200, body: first.body });
    const probed = await probeSession(h.t.svc, later, a);
    expect(probed).toMatchObject(LIVE);
    expect(await probeSession(h.t.svc, atA[1]!, a)).toEqual(endedSession());

    for (const changed of [
      { reason: 'another reason' },
      { reason: undefined },
      { clientApplicationId: a.clientId },
    ]) {
      const refused = await api('POST', '/sessions/revocation', { ...request, ...changed });
      expect(refused.status).toBe(409);
      expect(refused.body.message).toMatch(/operationId 'op-.*-1' was used for another selector or reason/);
    }
    expect(await probeSession(h.t.svc, probed.next!, a)).toMatchObject(LIVE);
    expect(await revokedEvents(user.id)).toHaveLength(1);
    expect((await revokedEvents(user.id))[0]?.data).toMatchObject({ operationId: request.operationId });
  });

  it('answers unauthorized requests like an unknown route, and revokes nothing', async () => {
    const { a, user, atA } = await given();
    const body = { userId: user.id, confirm: true };
    for (const [method, path, payload] of [
      ['GET', `/sessions?userId=${user.id}`, undefined],
      ['POST', '/sessions/revocation/preview', body],
      ['POST', '/sessions/revocation', body],
    ] as const) {
      const response = await api(method, path, payload, false);
      expect(response).toMatchObject({ status: 404, body: NOT_FOUND_BODY });
    }
    expect(await probeSession(h.t.svc, atA[0]!, a)).toMatchObject(LIVE);
  });
});

// Malformed selectors are refused before any query, on both databases; odd but well-formed ones reach
// PostgreSQL's indexes without a failure.
describeEachDatabase('operator session routes: malformed input', (kind) => {
  let t: TestSvc;
  beforeAll(async () => {
    t = await createTestSvc(kind);
  });
  afterAll(() => t.close());
  const api = operatorApi(ADMIN, () => t);

  it('answers 400 naming the field, never a 5xx', async () => {
    const cases: [string, unknown][] = [
      ['userId', { userId: 'u'.repeat(201), confirm: true }],
      ['sessionId', { sessionId: 'a\u0000b', confirm: true }],
      ['organizationId', { organizationId: 'a\nb', confirm: true }],
      ['clientApplicationId', { clientApplicationId: 'c'.repeat(257), confirm: true }],
      ['expectedMatchedSessions', { userId: 'u', confirm: true, expectedMatchedSessions: '2' }],
      ['expectedMatchedSessions', { userId: 'u', confirm: true, expectedMatchedSessions: 2.5 }],
      ['operationId', { userId: 'u', confirm: true, operationId: 'o'.repeat(129) }],
      ['reason', { userId: 'u', confirm: true, reason: 'r'.repeat(501) }],
      ['reason', { userId: 'u', confirm: true, reason: 'a\u001bb' }],
      ['clientApplicationId', { confirm: true }],
      ['(body)', '[]'],
    ];
    for (const [field, payload] of cases) {
      for (const path of ['/sessions/revocation/preview', '/sessions/revocation']) {
        const response = await api('POST', path, payload);
        expect(response.status, `${path} ${JSON.stringify(payload).slice(0, 80)}`).toBe(400);
        expect(response.body.message).toContain(field === '(body)' ? '' : field);
      }
    }
    for (const query of [
      'userId=%00',
      `clientId=${'c'.repeat(257)}`,
      'active=maybe',
      `cursor=${'x'.repeat(600)}`,
    ]) {
      expect((await api('GET', `/sessions?${query}`)).status, query).toBe(400);
    }
  });

  it('lets the longest well-formed ids reach the database', async () => {
    const longest = { userId: 'ü'.repeat(200), clientApplicationId: `c${'x'.repeat(255)}` };
    expect((await api('POST', '/sessions/revocation/preview', longest)).body).toEqual({
      matchedSessions: 0,
      activeRefreshTokens: 0,
      activeBrowserSessions: 0,
    });
    expect(await api('POST', '/sessions/revocation', { ...longest, confirm: true })).toMatchObject({
      status: 404,
      body: NOT_FOUND_BODY,
    });
    const query = `userId=${encodeURIComponent(longest.userId)}&clientId=${longest.clientApplicationId}`;
    expect(await api('GET', `/sessions?${query}`)).toMatchObject({
      status: 200,
      body: { data: [], nextCursor: null },
    });
  });
});

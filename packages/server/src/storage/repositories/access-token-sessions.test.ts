import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { ClientRecord } from '../../directory/repository.js';
import { createAuthHarness, type AuthHarness } from '../../test-support/auth-harness.js';
import { describeEachDatabase } from '../../test-support/databases.js';
import { accessTokenSessions } from './access-token-sessions.js';

describeEachDatabase('access-token validation storage', (kind) => {
  let h: AuthHarness;
  let client: ClientRecord;
  let userId: string;
  let email: string;

  // One app for the file: each test has a client and a user of its own.
  beforeAll(async () => {
    h = await createAuthHarness(kind);
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    client = (await h.given.client()).record;
    ({ id: userId, email } = await h.given.user({ displayName: 'Ada' }));
  });

  const issue = async (organizationId: string | null = null) =>
    (
      await h.engine.tokens.sessions.issueForNewSession({
        userId,
        client,
        organizationId,
        scopes: ['openid', 'email'],
        resource: null,
        amr: ['pwd'],
        authTime: h.clock.now(),
        includeIdToken: false,
      })
    ).sessionId;

  const stored = async (sessionId: string) =>
    (
      await h.db
        .selectFrom('sessions')
        .select('lastSeenAt')
        .where('id', '=', sessionId)
        .executeTakeFirstOrThrow()
    ).lastSeenAt;

  it('reads the session and its user in one row', async () => {
    const sessionId = await issue();
    const now = h.clock.now();
    expect(await accessTokenSessions(h.db).find(sessionId)).toEqual({
      session: {
        id: sessionId,
        userId,
        clientId: client.clientId,
        organizationId: null,
        grantedScopes: ['openid', 'email'],
        amr: ['pwd'],
        lastSeenAt: now,
        idleExpiresAt: expect.any(Number),
        absoluteExpiresAt: expect.any(Number),
        revokedAt: null,
      },
      user: {
        id: userId,
        displayName: 'Ada',
        email,
        emailVerified: false,
        active: true,
        updatedAt: expect.any(Number),
      },
      membershipActive: false,
    });
    expect(await accessTokenSessions(h.db).find('ses_unknown')).toBeUndefined();
  });

  it('reports the membership active only while both it and its organization are', async () => {
    const org = await h.given.organization();
    await h.given.membership(org.id, userId);
    const sessionId = await issue(org.id);
    const membershipActive = async () => (await accessTokenSessions(h.db).find(sessionId))?.membershipActive;
    expect(await membershipActive()).toBe(true);
    await h.db.updateTable('organizations').set({ active: 0 }).where('id', '=', org.id).execute();
    expect(await membershipActive()).toBe(false);
    await h.db.updateTable('organizations').set({ active: 1 }).where('id', '=', org.id).execute();
    await h.db.updateTable('memberships').set({ active: 0 }).where('organizationId', '=', org.id).execute();
    expect(await membershipActive()).toBe(false);
  });

  it('writes lastSeenAt only over a value at or before the bound: of racing stale readers one writes', async () => {
    const sessionId = await issue();
    const issuedAt = await stored(sessionId);
    const sessions = accessTokenSessions(h.db);
    // Concurrent validations that all read issuedAt: the first UPDATE moves the value past the bound.
    await Promise.all([
      sessions.touch(sessionId, issuedAt + 60_000, issuedAt),
      sessions.touch(sessionId, issuedAt + 60_001, issuedAt),
      sessions.touch(sessionId, issuedAt + 60_002, issuedAt),
    ]);
    expect(await stored(sessionId)).toBe(issuedAt + 60_000);
    await sessions.touch(sessionId, issuedAt + 90_000, issuedAt + 59_999);
    expect(await stored(sessionId)).toBe(issuedAt + 60_000);
    await sessions.touch(sessionId, issuedAt + 120_000, issuedAt + 60_000);
    expect(await stored(sessionId)).toBe(issuedAt + 120_000);
  });
});

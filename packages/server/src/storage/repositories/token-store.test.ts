import { beforeEach, expect, it } from 'vitest';
import type { RefreshTokenRecord, SessionRecord } from '../../oauth/tokens/repository.js';
import { clientRecord } from '../../test-support/client-record.js';
import { describeEachDatabase } from '../../test-support/databases.js';
import { useFreshMigratedDatabase } from '../../test-support/fresh-database.js';
import { clientRepository } from './clients.js';
import { tokenStore } from './token-store.js';
import { userRepository } from './users.js';

// The grant writes of the token store, each all or nothing (one statement on PostgreSQL, one
// transaction on SQLite): what each writes, and what it leaves alone when it refuses.
describeEachDatabase('token store grant writes', (kind) => {
  // The ids are fixed: each test has a database of its own.
  const h = useFreshMigratedDatabase(kind);
  const userId = 'usr_ada';
  const userEmail = 'ada@example.com';
  const { clientId } = clientRecord();
  const now = 1_800_000_000_000;

  beforeEach(async () => {
    await userRepository(h.db).insertIfEmailFree({
      id: userId,
      displayName: 'Ada Lovelace',
      email: userEmail,
      emailKey: userEmail.toUpperCase(),
      emailVerified: false,
      passwordHash: null,
      isOperator: false,
      active: true,
      createdAt: now,
      updatedAt: now,
    });
    await clientRepository(h.db).insertIfClientIdFree(clientRecord());
  });

  const store = () => tokenStore(h.db);

  const sessionRecord = (id: string): SessionRecord => ({
    id,
    userId,
    clientId,
    organizationId: null,
    grantedScopes: ['openid', 'profile'],
    resource: 'https://api.example.com',
    amr: ['pwd', 'otp'],
    authTime: now - 5_000,
    userAgent: 'Agent/1.0',
    ipAddress: '203.0.113.7',
    createdAt: now,
    lastSeenAt: now,
    idleExpiresAt: now + 60_000,
    absoluteExpiresAt: now + 120_000,
    revokedAt: null,
    revokedReason: null,
  });

  const tokenRecord = (id: string, sessionId: string, expiresAt = now + 30_000): RefreshTokenRecord => ({
    id,
    sessionId,
    tokenHash: `hash-of-${id}`,
    createdAt: now,
    expiresAt,
    consumedAt: null,
    revokedAt: null,
  });

  const sessionRow = (id: string) =>
    h.db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
  const tokenRows = (sessionId: string) =>
    h.db.selectFrom('refreshTokens').selectAll().where('sessionId', '=', sessionId).orderBy('id').execute();

  const insertCode = (codeHash: string, expiresAt = now + 60_000) =>
    h.db
      .insertInto('authorizationCodes')
      .values({
        codeHash,
        clientId,
        userId,
        organizationId: null,
        redirectUri: 'https://app.example.com/cb',
        codeChallenge: null,
        scopeJson: '["openid"]',
        resource: null,
        nonce: null,
        authTime: now,
        amrJson: '["pwd"]',
        createdAt: now,
        expiresAt,
        consumedAt: null,
        sessionId: null,
      })
      .execute();

  it('creates a session with its first refresh token, every field as given, read back with its user', async () => {
    await store().createSession(sessionRecord('ses_a'), tokenRecord('rft_a1', 'ses_a'));

    const found = await store().findRefreshToken({ id: 'rft_a1', tokenHash: 'hash-of-rft_a1' });
    expect(found).toEqual({
      session: sessionRecord('ses_a'),
      token: tokenRecord('rft_a1', 'ses_a'),
      user: {
        id: userId,
        displayName: 'Ada Lovelace',
        email: userEmail,
        emailVerified: false,
        active: true,
        updatedAt: expect.any(Number),
      },
    });
    // The row a token names must also hold its hash; a token without an id is only a pre-0013 one.
    expect(await store().findRefreshToken({ id: 'rft_a1', tokenHash: 'hash-of-unknown' })).toBeUndefined();
    expect(await store().findRefreshToken({ id: 'rft_zz', tokenHash: 'hash-of-rft_a1' })).toBeUndefined();
    expect(await store().findRefreshToken({ id: null, tokenHash: 'hash-of-rft_a1' })).toBeUndefined();
  });

  it('finds a token from before tokens named their rows by its hash alone', async () => {
    await store().createSession(sessionRecord('ses_a'), tokenRecord('rft_a1', 'ses_a'));
    expect(await tokenRows('ses_a')).toMatchObject([{ tokenFormat: 2 }]);
    await h.db.updateTable('refreshTokens').set({ tokenFormat: 1 }).where('id', '=', 'rft_a1').execute();

    expect(await store().findRefreshToken({ id: null, tokenHash: 'hash-of-rft_a1' })).toMatchObject({
      session: sessionRecord('ses_a'),
      token: tokenRecord('rft_a1', 'ses_a'),
    });
    expect(await store().findRefreshToken({ id: null, tokenHash: 'hash-of-other' })).toBeUndefined();
  });

  it('writes neither row when the refresh token cannot be written', async () => {
    await store().createSession(sessionRecord('ses_a'), tokenRecord('rft_a1', 'ses_a'));

    // A token id already stored: the token insert fails, and the session written before it must go too.
    await expect(
      store().createSession(sessionRecord('ses_b'), tokenRecord('rft_a1', 'ses_b')),
    ).rejects.toThrow();
    expect(await sessionRow('ses_b')).toBeUndefined();
  });

  it('rotates: consumes the token, moves the session and adds the successor', async () => {
    await store().createSession(sessionRecord('ses_a'), tokenRecord('rft_a1', 'ses_a'));
    const later = now + 1_000;

    const outcome = await store().rotateRefreshToken({
      tokenId: 'rft_a1',
      now: later,
      update: { organizationId: null, idleExpiresAt: later + 60_000, lastSeenAt: later },
      next: { ...tokenRecord('rft_a2', 'ses_a'), createdAt: later, expiresAt: later + 30_000 },
    });

    expect(outcome).toBe('rotated');
    expect(await sessionRow('ses_a')).toMatchObject({ lastSeenAt: later, idleExpiresAt: later + 60_000 });
    expect(await tokenRows('ses_a')).toEqual([
      expect.objectContaining({ id: 'rft_a1', consumedAt: later, revokedAt: null }),
      expect.objectContaining({
        id: 'rft_a2',
        tokenHash: 'hash-of-rft_a2',
        createdAt: later,
        expiresAt: later + 30_000,
        consumedAt: null,
        revokedAt: null,
      }),
    ]);
  });

  it('refuses a consumed, revoked or expired token and writes nothing', async () => {
    await store().createSession(sessionRecord('ses_a'), tokenRecord('rft_a1', 'ses_a', now + 500));
    const rotate = (tokenId: string, at: number, nextId: string) =>
      store().rotateRefreshToken({
        tokenId,
        now: at,
        update: { organizationId: null, idleExpiresAt: at + 60_000, lastSeenAt: at },
        next: tokenRecord(nextId, 'ses_a'),
      });

    // Expired: refused at its expiry instant.
    expect(await rotate('rft_a1', now + 500, 'rft_x1')).toBe('token_used');
    expect(await rotate('rft_a1', now + 100, 'rft_a2')).toBe('rotated');
    // Consumed: the second of two rotations with one token.
    expect(await rotate('rft_a1', now + 200, 'rft_x2')).toBe('token_used');
    await h.db.updateTable('refreshTokens').set({ revokedAt: now }).where('id', '=', 'rft_a2').execute();
    expect(await rotate('rft_a2', now + 300, 'rft_x3')).toBe('token_used');

    expect((await tokenRows('ses_a')).map((row) => row.id)).toEqual(['rft_a1', 'rft_a2']);
    expect(await sessionRow('ses_a')).toMatchObject({ lastSeenAt: now + 100 });
  });

  it('answers session_revoked, without a successor, when the session was revoked meanwhile', async () => {
    await store().createSession(sessionRecord('ses_a'), tokenRecord('rft_a1', 'ses_a'));
    // A revocation that has reached the session row but not yet its tokens (revokeSession's two steps).
    await h.db.updateTable('sessions').set({ revokedAt: now }).where('id', '=', 'ses_a').execute();

    const outcome = await store().rotateRefreshToken({
      tokenId: 'rft_a1',
      now: now + 1_000,
      update: { organizationId: null, idleExpiresAt: now + 61_000, lastSeenAt: now + 1_000 },
      next: tokenRecord('rft_a2', 'ses_a'),
    });

    expect(outcome).toBe('session_revoked');
    expect((await tokenRows('ses_a')).map((row) => row.id)).toEqual(['rft_a1']);
    expect(await sessionRow('ses_a')).toMatchObject({ revokedAt: now, lastSeenAt: now });
  });

  it('redeems a code once: consumed with the session named, the session and its first token written', async () => {
    await insertCode('code-1');

    expect(
      await store().redeemAuthorizationCode(
        'code-1',
        now + 1_000,
        sessionRecord('ses_c'),
        tokenRecord('rft_c1', 'ses_c'),
      ),
    ).toBe(true);
    expect(await store().findAuthorizationCode('code-1')).toMatchObject({
      code: { consumedAt: now + 1_000, sessionId: 'ses_c' },
      user: { id: userId, displayName: 'Ada Lovelace', email: userEmail, active: true },
    });
    expect(await store().findRefreshToken({ id: 'rft_c1', tokenHash: 'hash-of-rft_c1' })).toMatchObject({
      session: sessionRecord('ses_c'),
      token: tokenRecord('rft_c1', 'ses_c'),
    });

    // The second redemption writes nothing: no session, and the code still names the first.
    expect(
      await store().redeemAuthorizationCode(
        'code-1',
        now + 2_000,
        sessionRecord('ses_d'),
        tokenRecord('rft_d1', 'ses_d'),
      ),
    ).toBe(false);
    expect(await sessionRow('ses_d')).toBeUndefined();
    expect(await store().findAuthorizationCode('code-1')).toMatchObject({ code: { sessionId: 'ses_c' } });
  });

  it('does not redeem an expired or unknown code', async () => {
    await insertCode('code-2', now + 500);

    expect(
      await store().redeemAuthorizationCode(
        'code-2',
        now + 500,
        sessionRecord('ses_e'),
        tokenRecord('rft_e1', 'ses_e'),
      ),
    ).toBe(false);
    expect(
      await store().redeemAuthorizationCode(
        'unknown',
        now,
        sessionRecord('ses_f'),
        tokenRecord('rft_f1', 'ses_f'),
      ),
    ).toBe(false);
    expect(await sessionRow('ses_e')).toBeUndefined();
    expect(await sessionRow('ses_f')).toBeUndefined();
    expect(await store().findAuthorizationCode('code-2')).toMatchObject({
      code: { consumedAt: null, sessionId: null },
    });
  });
});

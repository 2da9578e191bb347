import { expect, it } from 'vitest';
import { describeEachDatabase, useMigratedDatabase } from '../test-support/databases.js';
import { attemptLimitedRows, singleUseRows } from './single-use.js';

const NOW = 1_800_000_000_000;
const LIFETIME = 60_000;

/**
 * The single-use primitive on each database: concurrent callers race for real on PostgreSQL (a pool of
 * connections), so a check made apart from its write would let several of them through.
 */
describeEachDatabase('single-use rows', (kind) => {
  const database = useMigratedDatabase(kind);
  const challenges = () => attemptLimitedRows(database.db, 'emailOtpChallenges', 'challengeHash');
  const links = () => singleUseRows(database.db, 'magicLinks', 'tokenHash');

  let next = 0;
  const addChallenge = async (
    changes: { expiresAt?: number; consumedAt?: number; attempts?: number } = {},
  ) => {
    next += 1;
    const challengeHash = `challenge-${next}`;
    await database.db
      .insertInto('emailOtpChallenges')
      .values({
        challengeHash,
        purpose: 'login',
        emailKey: 'PAT@EXAMPLE.COM',
        clientId: 'app',
        organizationId: null,
        codeHash: 'code-hash',
        attempts: changes.attempts ?? 0,
        signupTokenHash: null,
        signupJson: null,
        createdAt: NOW,
        expiresAt: changes.expiresAt ?? NOW + LIFETIME,
        consumedAt: changes.consumedAt ?? null,
      })
      .execute();
    return challengeHash;
  };
  const addLink = async () => {
    next += 1;
    const tokenHash = `link-${next}`;
    await database.db
      .insertInto('magicLinks')
      .values({
        tokenHash,
        userId: 'usr_1',
        clientId: 'app',
        organizationId: null,
        createdAt: NOW,
        expiresAt: NOW + LIFETIME,
        consumedAt: null,
      })
      .execute();
    return tokenHash;
  };
  const stored = (challengeHash: string) =>
    database.db
      .selectFrom('emailOtpChallenges')
      .select(['attempts', 'consumedAt'])
      .where('challengeHash', '=', challengeHash)
      .executeTakeFirstOrThrow();

  it('finds an active row by its key, and only that row', async () => {
    const [first, second] = [await addLink(), await addLink()];
    expect(await links().findActive(first, NOW)).toMatchObject({ tokenHash: first, consumedAt: null });
    expect(await links().findActive('unknown', NOW)).toBeUndefined();
    expect(await links().consume(first, NOW)).toMatchObject({ tokenHash: first });
    expect(await links().findActive(first, NOW)).toBeUndefined();
    expect(await links().findActive(second, NOW)).toMatchObject({ tokenHash: second, consumedAt: null });
  });

  it('gives one of many concurrent consumers the row, consumed at that time', async () => {
    // Several keys raced at once, so that PostgreSQL's pool opens connections that really run together.
    const keys = await Promise.all(Array.from({ length: 5 }, () => addLink()));
    const outcomes = await Promise.all(
      keys.map((key) => Promise.all(Array.from({ length: 8 }, () => links().consume(key, NOW + 5)))),
    );
    for (const [index, raced] of outcomes.entries()) {
      const winners = raced.filter((row) => row !== undefined);
      expect(winners).toHaveLength(1);
      expect(winners[0]).toMatchObject({ tokenHash: keys[index], consumedAt: NOW + 5 });
    }
    expect(await links().consume(keys[0] ?? '', NOW + 6)).toBeUndefined();
  });

  it('counts exactly the limit of concurrent attempts, each returning the row as counted', async () => {
    const keys = await Promise.all(Array.from({ length: 5 }, () => addChallenge()));
    const outcomes = await Promise.all(
      keys.map((key) => Promise.all(Array.from({ length: 8 }, () => challenges().countAttempt(key, NOW, 3)))),
    );
    for (const [index, raced] of outcomes.entries()) {
      const counted = raced.filter((row) => row !== undefined);
      expect(counted.map((row) => row.attempts).sort()).toEqual([1, 2, 3]);
      expect((await stored(keys[index] ?? '')).attempts).toBe(3);
    }
    const key = keys[0] ?? '';
    expect(await challenges().countAttempt(key, NOW, 3)).toBeUndefined();
    // The limit is the caller's: a higher one counts on from where the row is.
    expect((await challenges().countAttempt(key, NOW, 4))?.attempts).toBe(4);
  });

  it('neither finds, consumes nor counts an expired row, from the moment it expires', async () => {
    const key = await addChallenge({ expiresAt: NOW });
    expect(await challenges().findActive(key, NOW - 1)).toMatchObject({ challengeHash: key });
    expect(await challenges().findActive(key, NOW)).toBeUndefined();
    expect(await challenges().countAttempt(key, NOW, 5)).toBeUndefined();
    expect(await challenges().consume(key, NOW)).toBeUndefined();
    expect(await stored(key)).toEqual({ attempts: 0, consumedAt: null });
  });

  it('neither finds, consumes nor counts a consumed row, and keeps its consumption time', async () => {
    const key = await addChallenge({ consumedAt: NOW - 10, attempts: 1 });
    expect(await challenges().findActive(key, NOW)).toBeUndefined();
    expect(await challenges().countAttempt(key, NOW, 5)).toBeUndefined();
    expect(await challenges().consume(key, NOW)).toBeUndefined();
    expect(await stored(key)).toEqual({ attempts: 1, consumedAt: NOW - 10 });
  });

  it('consumes a row whatever its attempts: the limit is checked where an attempt is counted', async () => {
    const key = await addChallenge({ attempts: 3 });
    expect(await challenges().countAttempt(key, NOW, 3)).toBeUndefined();
    expect(await challenges().consume(key, NOW)).toMatchObject({ challengeHash: key });
  });
});

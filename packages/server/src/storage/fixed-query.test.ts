import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeEachDatabase, useMigratedDatabase } from '../test-support/databases.js';
import { affectedRows, fixedQuery, preparedName } from './fixed-query.js';

const insertKey = fixedQuery((db, p: { kid: string; createdAt: number }) =>
  db.insertInto('signingKeys').values({
    kid: p.kid,
    alg: 'RS256',
    publicJwkJson: '{}',
    privateKeySealed: 'sealed',
    activeSlot: null,
    createdAt: p.createdAt,
    rotatedOutAt: null,
  }),
);

/** A parameter used twice and a constant ('RS256') between the parameters. */
const rotateOut = fixedQuery((db, p: { kid: string; now: number }) =>
  db
    .updateTable('signingKeys')
    .set({ rotatedOutAt: p.now })
    .where('kid', '=', p.kid)
    .where('alg', '=', 'RS256')
    .where('rotatedOutAt', 'is', null)
    .where('createdAt', '<', p.now),
);

const selectKey = fixedQuery((db, p: { kid: string }) =>
  db.selectFrom('signingKeys').select(['kid', 'alg', 'rotatedOutAt']).where('kid', '=', p.kid),
);

const selectEveryColumn = fixedQuery((db, p: { kid: string }) =>
  db.selectFrom('signingKeys').selectAll().where('kid', '=', p.kid),
);

/** Thrown to roll a test's transaction back after it ran. */
class RolledBack extends Error {}

describeEachDatabase('fixedQuery', (kind) => {
  const database = useMigratedDatabase(kind);

  it('runs one compiled statement with each call’s parameters, on the database and in transactions', async () => {
    const { db } = database;
    await insertKey(db, { kid: 'k1', createdAt: 1_000 });
    await db.transaction().execute((tx) => insertKey(tx, { kid: 'k2', createdAt: 2_000 }));

    expect((await selectKey(db, { kid: 'k1' })).rows).toEqual([
      { kid: 'k1', alg: 'RS256', rotatedOutAt: null },
    ]);
    expect((await selectKey(db, { kid: 'missing' })).rows).toEqual([]);

    expect(affectedRows(await rotateOut(db, { kid: 'k1', now: 5_000 }))).toBe(1);
    // Already rotated out: the IS NULL condition holds with new parameters too.
    expect(affectedRows(await rotateOut(db, { kid: 'k1', now: 6_000 }))).toBe(0);
    // The same parameter in SET and WHERE: a key created after `now` is left alone.
    const changed = await db
      .transaction()
      .execute(async (tx) => affectedRows(await rotateOut(tx, { kid: 'k2', now: 1_500 })));
    expect(changed).toBe(0);
    expect((await selectKey(db, { kid: 'k1' })).rows).toEqual([
      { kid: 'k1', alg: 'RS256', rotatedOutAt: 5_000 },
    ]);
    expect((await selectKey(db, { kid: 'k2' })).rows).toEqual([
      { kid: 'k2', alg: 'RS256', rotatedOutAt: null },
    ]);
  });

  it('refuses a parameter that does not reach the query as a bound value', async () => {
    const unused = fixedQuery((db, p: { kid: string; ignored: string }) => {
      void p.ignored;
      return db.selectFrom('signingKeys').select('kid').where('kid', '=', p.kid);
    });
    await expect(unused(database.db, { kid: 'k1', ignored: 'x' })).rejects.toThrow(
      'fixedQuery: parameter ignored is not a bound value.',
    );
  });

  if (kind === 'postgres') {
    it('keeps named-column queries prepared on the connection, and leaves `*` unnamed', async () => {
      const { db } = database;
      let statements: string[] = [];
      await db
        .transaction()
        .execute(async (tx) => {
          await insertKey(tx, { kid: 'p1', createdAt: 1_000 });
          expect((await selectKey(tx, { kid: 'p1' })).rows).toHaveLength(1);
          // A column added meanwhile (a migration on another node) leaves a named-column statement valid.
          await sql`alter table signing_keys add column note text`.execute(tx);
          expect((await selectKey(tx, { kid: 'p1' })).rows).toEqual([
            { kid: 'p1', alg: 'RS256', rotatedOutAt: null },
          ]);
          expect((await selectEveryColumn(tx, { kid: 'p1' })).rows).toHaveLength(1);
          const { rows } = await sql<{ name: string }>`select name from pg_prepared_statements`.execute(tx);
          statements = rows.map((row) => row.name);
          // Undoes the column and the key.
          throw new RolledBack();
        })
        .catch((error: unknown) => {
          if (!(error instanceof RolledBack)) throw error;
        });

      const named = (compiled: { compile: () => { sql: string } }) => preparedName(compiled.compile().sql);
      const keyName = named(
        db.selectFrom('signingKeys').select(['kid', 'alg', 'rotatedOutAt']).where('kid', '=', 'x'),
      );
      expect(keyName).toMatch(/^svc_[0-9a-f]{24}$/);
      expect(statements).toContain(keyName);
      expect(named(db.selectFrom('signingKeys').selectAll().where('kid', '=', 'x'))).toBeUndefined();
    });
  }
});

import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeEachDatabase, useMigratedDatabase } from '../test-support/databases.js';
import { idleSqlite } from './direct-sqlite.js';
import { affectedRows, fixedQuery, preparedName, writeAtomically, writeStep } from './fixed-query.js';

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

  it('writes steps in one transaction: stops at a step that changes no row, keeping what came before', async () => {
    const { db } = database;
    const steps = (kid: string, now: number) => [
      writeStep(insertKey, { kid, createdAt: 1_000 }),
      writeStep(rotateOut, { kid: 'w-absent', now }, 'stopped' as const),
      writeStep(insertKey, { kid: `${kid}-after`, createdAt: 1_000 }),
    ];
    expect(await writeAtomically(db, steps('w1', 5_000), 'done' as const)).toBe('stopped');
    expect((await selectKey(db, { kid: 'w1' })).rows).toHaveLength(1);
    expect((await selectKey(db, { kid: 'w1-after' })).rows).toEqual([]);

    await insertKey(db, { kid: 'w-absent', createdAt: 1_000 });
    expect(await writeAtomically(db, steps('w2', 5_000), 'done' as const)).toBe('done');
    expect((await selectKey(db, { kid: 'w2-after' })).rows).toHaveLength(1);

    // A failing statement (a duplicate key) undoes the whole write, on its own or in a caller's transaction.
    const failing = [
      writeStep(insertKey, { kid: 'w3', createdAt: 1_000 }),
      writeStep(insertKey, { kid: 'w1', createdAt: 1_000 }),
    ];
    await expect(writeAtomically(db, failing, 'done')).rejects.toThrow();
    await expect(db.transaction().execute((tx) => writeAtomically(tx, failing, 'done'))).rejects.toThrow();
    expect((await selectKey(db, { kid: 'w3' })).rows).toEqual([]);
  });

  if (kind === 'sqlite') {
    it('runs on the calling tick while no transaction is open, with the rows Kysely would give', async () => {
      const { db } = database;
      expect(idleSqlite(db)).toBeDefined();
      // A Kysely query asked for first runs a few promise hops later; the fixed insert asked for after it
      // is already written by then.
      const seenByKysely = db.selectFrom('signingKeys').select('kid').where('kid', '=', 'd1').execute();
      await insertKey(db, { kid: 'd1', createdAt: 1_000 });
      expect(await seenByKysely).toEqual([{ kid: 'd1' }]);
      const viaKysely = await db.selectFrom('signingKeys').selectAll().where('kid', '=', 'd1').execute();
      const direct = (await selectEveryColumn(db, { kid: 'd1' })).rows;
      expect(direct).toEqual(viaKysely);
      // The same keys in the same order, null columns included.
      expect(direct.map((row) => Object.entries(row))).toEqual(viaKysely.map((row) => Object.entries(row)));
      expect(viaKysely[0]).toMatchObject({ publicJwkJson: '{}', activeSlot: null, rotatedOutAt: null });
      expect(affectedRows(await rotateOut(db, { kid: 'd1', now: 5_000 }))).toBe(1);
    });

    it('never joins a transaction another caller has open: it waits for it, and survives its rollback', async () => {
      const { db } = database;
      let outside: Promise<unknown> | undefined;
      await db
        .transaction()
        .execute(async (tx) => {
          await insertKey(tx, { kid: 't-inside', createdAt: 1_000 });
          expect(idleSqlite(db)).toBeUndefined();
          outside = insertKey(db, { kid: 't-outside', createdAt: 1_000 });
          await new Promise((resolve) => setImmediate(resolve));
          throw new RolledBack();
        })
        .catch((error: unknown) => {
          if (!(error instanceof RolledBack)) throw error;
        });
      await outside;
      expect((await selectKey(db, { kid: 't-inside' })).rows).toEqual([]);
      expect((await selectKey(db, { kid: 't-outside' })).rows).toHaveLength(1);
      expect(idleSqlite(db)).toBeDefined();
    });
  }

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

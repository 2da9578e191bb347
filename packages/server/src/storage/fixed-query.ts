import { createHash } from 'node:crypto';
import {
  PostgresAdapter,
  type Compilable,
  type CompiledQuery,
  type DialectAdapter,
  type QueryResult,
} from 'kysely';
import type { Db } from './schema.js';
import { idleSqlite } from './direct-sqlite.js';

/** SQL text → statement name, for the fixed queries PostgreSQL keeps prepared (see {@link preparedName}). */
const preparedNames = new Map<string, string>();

/**
 * The name under which PostgreSQL keeps this SQL text prepared on each connection, if it is a fixed
 * query's: parsed and planned once per connection instead of on every call. Fixed queries are few and
 * their texts never change, so the prepared statements are bounded. A query reading `*` is left
 * unnamed: a column added by a migration on another node would change its result type, which a
 * prepared statement refuses ("cached plan must not change result type").
 */
export function preparedName(sql: string): string | undefined {
  return preparedNames.get(sql);
}

function registerPrepared(sql: string): void {
  if (/\.\*|select \*/.test(sql)) return;
  preparedNames.set(sql, `svc_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`);
}

/** Stands for parameter `name` while the query is built; unique enough never to be a real value. */
const placeholder = (name: string): string => `\u0000svc-fixed-query:${name}\u0000`;

interface Compiled {
  readonly template: CompiledQuery;
  /** Per bound parameter: the name of the parameter it takes, or undefined for a constant of the query. */
  readonly slots: readonly (string | undefined)[];
}

/** A fixed-shape query: run it on the database or on a transaction with this call's parameters. */
export interface FixedQuery<P extends object, R> {
  (db: Db, params: P): Promise<QueryResult<R>>;
  /** The query with this call's parameters, compiled for `db`'s dialect. */
  compiled(db: Db, params: P): CompiledQuery<R>;
}

/**
 * A query whose shape never changes, built and compiled by Kysely once per database adapter (SQLite and
 * PostgreSQL write parameters differently) and afterwards run with fresh parameters. The token endpoint
 * runs several queries per request, and building each operation tree, passing it through the
 * CamelCasePlugin and compiling it to SQL cost more than SQLite takes to run the statement; the plugin
 * still maps the result rows, so callers read camelCase rows as with any other query. On PostgreSQL the
 * statement is also kept prepared per connection ({@link preparedName}). On SQLite, while no transaction is
 * open, it runs on the calling tick past Kysely's connection mutex (direct-sqlite.ts).
 *
 * `build` reads its parameters from `params` (name them in the annotation of its second argument). Each
 * one must reach the query as a bound value (compared, set or inserted), never as SQL text, a list or a
 * limit: compiling checks that every parameter read came out as a bound value of its own.
 */
export function fixedQuery<P extends object, R>(
  build: (db: Db, params: P) => Compilable<R>,
): FixedQuery<P, R> {
  const byAdapter = new WeakMap<DialectAdapter, Compiled>();
  const compile = (db: Db): Compiled => {
    const read = new Map<string, string>();
    const params = new Proxy({} as P, {
      get: (_target, name) => {
        if (typeof name !== 'string') return undefined;
        const value = placeholder(name);
        read.set(value, name);
        return value;
      },
    });
    const template = build(db, params).compile();
    if (db.getExecutor().adapter instanceof PostgresAdapter) registerPrepared(template.sql);
    const slots = template.parameters.map((value) =>
      typeof value === 'string' ? read.get(value) : undefined,
    );
    for (const name of read.values()) {
      if (!slots.includes(name)) throw new Error(`fixedQuery: parameter ${name} is not a bound value.`);
    }
    return { template, slots };
  };
  const compiled = (db: Db, params: P): CompiledQuery<R> => {
    const adapter = db.getExecutor().adapter;
    let shape = byAdapter.get(adapter);
    if (shape === undefined) {
      shape = compile(db);
      byAdapter.set(adapter, shape);
    }
    const { template, slots } = shape;
    const values = params as Record<string, unknown>;
    const parameters = slots.map((name, position) =>
      name === undefined ? template.parameters[position] : values[name],
    );
    return { ...template, parameters } as CompiledQuery<R>;
  };
  const run = async (db: Db, params: P): Promise<QueryResult<R>> => {
    const query = compiled(db, params);
    const direct = idleSqlite(db);
    return direct === undefined ? db.executeQuery(query) : direct.execute(query);
  };
  return Object.assign(run, { compiled });
}

/** One statement of an all-or-nothing write ({@link writeAtomically}). */
export interface WriteStep<O> {
  readonly compiled: (db: Db) => CompiledQuery;
  /** The write's outcome when this statement changes no row (or several): the write stops there. */
  readonly unlessOneRow: O | undefined;
}

/** `query` with `params` as a step of {@link writeAtomically}, stopping it with `unlessOneRow` if given. */
export function writeStep<P extends object, O = never>(
  query: FixedQuery<P, unknown>,
  params: P,
  unlessOneRow?: O,
): WriteStep<O> {
  return { compiled: (db) => query.compiled(db, params), unlessOneRow };
}

/**
 * Runs `steps` in order in one transaction (the caller's, when `db` is one) and resolves to `outcome`,
 * or to the `unlessOneRow` outcome of the first step that changed other than exactly one row. The write
 * then stops there and what the steps before it wrote is committed, as their callers expect. On SQLite,
 * when no transaction is open, the whole transaction runs on the calling tick (direct-sqlite.ts).
 */
export async function writeAtomically<O>(db: Db, steps: readonly WriteStep<O>[], outcome: O): Promise<O> {
  const direct = idleSqlite(db);
  if (direct !== undefined) {
    return direct.transaction(() => {
      for (const step of steps) {
        const result = direct.execute(step.compiled(db));
        if (step.unlessOneRow !== undefined && affectedRows(result) !== 1) return step.unlessOneRow;
      }
      return outcome;
    });
  }
  const work = async (tx: Db): Promise<O> => {
    for (const step of steps) {
      const result = await tx.executeQuery(step.compiled(tx));
      if (step.unlessOneRow !== undefined && affectedRows(result) !== 1) return step.unlessOneRow;
    }
    return outcome;
  };
  return inTransaction(db, work);
}

/** Runs `work` in a transaction: the caller's, when `db` is one, or a new one. */
export function inTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

/**
 * Every column of a table, for a fixed query to name instead of `*` (which is not kept prepared). The
 * record must have a key for each column of `T` (its values are the caller's: `true`, or what the caller
 * needs per column), so a column added to the schema is a compile error until it is listed here too.
 */
export function allColumns<T>(columns: { readonly [K in keyof T & string]: unknown }): (keyof T & string)[] {
  return Object.keys(columns) as (keyof T & string)[];
}

/** The rows an UPDATE or DELETE changed, as a number (PostgreSQL and SQLite report a bigint). */
export function affectedRows(result: QueryResult<unknown>): number {
  return Number(result.numAffectedRows ?? 0n);
}

/** The rows a Kysely UPDATE changed, as a number (PostgreSQL and SQLite report a bigint). */
export function updatedRows(result: { numUpdatedRows: bigint } | undefined): number {
  return Number(result?.numUpdatedRows ?? 0n);
}

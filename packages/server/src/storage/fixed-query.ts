import type { Compilable, CompiledQuery, DialectAdapter, QueryResult } from 'kysely';
import type { Db } from './database.js';

/** Stands for parameter `name` while the query is built; unique enough never to be a real value. */
const placeholder = (name: string): string => `\u0000svc-fixed-query:${name}\u0000`;

interface Compiled {
  readonly template: CompiledQuery;
  /** Per bound parameter: the name of the parameter it takes, or undefined for a constant of the query. */
  readonly slots: readonly (string | undefined)[];
}

/** A fixed-shape query: run it on the database or on a transaction with this call's parameters. */
export type FixedQuery<P extends object, R> = (db: Db, params: P) => Promise<QueryResult<R>>;

/**
 * A query whose shape never changes, built and compiled by Kysely once per database adapter (SQLite and
 * PostgreSQL write parameters differently) and afterwards run with fresh parameters. The token endpoint
 * runs several queries per request, and building each operation tree, passing it through the
 * CamelCasePlugin and compiling it to SQL cost more than SQLite takes to run the statement; the plugin
 * still maps the result rows, so callers read camelCase rows as with any other query.
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
    const slots = template.parameters.map((value) =>
      typeof value === 'string' ? read.get(value) : undefined,
    );
    for (const name of read.values()) {
      if (!slots.includes(name)) throw new Error(`fixedQuery: parameter ${name} is not a bound value.`);
    }
    return { template, slots };
  };
  return async (db, params) => {
    const adapter = db.getExecutor().adapter;
    let compiled = byAdapter.get(adapter);
    if (compiled === undefined) {
      compiled = compile(db);
      byAdapter.set(adapter, compiled);
    }
    const { template, slots } = compiled;
    const values = params as Record<string, unknown>;
    const parameters = slots.map((name, position) =>
      name === undefined ? template.parameters[position] : values[name],
    );
    return db.executeQuery<R>({ ...template, parameters } as CompiledQuery<R>);
  };
}

/** The rows an UPDATE or DELETE changed, as a number (PostgreSQL and SQLite report a bigint). */
export function affectedRows(result: QueryResult<unknown>): number {
  return Number(result.numAffectedRows ?? 0n);
}

/** The rows a Kysely UPDATE changed, as a number (PostgreSQL and SQLite report a bigint). */
export function updatedRows(result: { numUpdatedRows: bigint } | undefined): number {
  return Number(result?.numUpdatedRows ?? 0n);
}

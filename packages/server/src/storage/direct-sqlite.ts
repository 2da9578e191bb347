import type BetterSqlite3 from 'better-sqlite3';
import { CamelCasePlugin, type CompiledQuery, type QueryResult } from 'kysely';
import type { Db } from './schema.js';
import { guard, type CachedStatements, type GuardedStatement } from './sqlite-statements.js';

/** A row as better-sqlite3 reads it, to the row Kysely gives with the CamelCasePlugin. */
type RowMapper = (row: Record<string, unknown>) => unknown;

/** Kysely's CamelCasePlugin, able to map rows read past Kysely. */
export class SvcCamelCasePlugin extends CamelCasePlugin {
  /**
   * Maps rows of these columns as the plugin's `mapRow` does (SQLite gives only flat values), but as
   * one object literal made for the columns: `mapRow` adds each renamed key to an empty object in turn,
   * which V8 does on its slow path (about 1.4 µs for a 30-column row, against 20 ns). The generated
   * source holds column names only as JSON string literals.
   */
  rowMapper(columns: readonly string[]): RowMapper {
    const properties = columns.map(
      (column) => `${JSON.stringify(this.camelCase(column))}: row[${JSON.stringify(column)}]`,
    );
    return new Function('row', `return { ${properties.join(', ')} };`) as RowMapper;
  }
}

/**
 * The SQLite connection behind a Kysely instance, for fixed queries run on the calling tick. Kysely's
 * SQLite driver serializes every query through an asynchronous mutex and passes the result through
 * several promise hops; on the token endpoint those hops cost more than SQLite takes to run the
 * statements. A statement may skip them only while no transaction is open on the connection: better-
 * sqlite3 runs it synchronously, so nothing can interleave with it, and a Kysely transaction that is
 * open (it holds the connection across awaits) is never joined, because the caller then goes through
 * Kysely and waits for the connection like any query.
 */
export interface DirectSqlite {
  /** Runs a compiled query now, with the result Kysely would give (rows mapped to camelCase). */
  execute<R>(query: CompiledQuery<R>): QueryResult<R>;
  /** Runs `work` now in one transaction: committed when it returns, rolled back when it throws. */
  transaction<T>(work: () => T): T;
}

const connections = new WeakMap<Db, Connection>();

/** Makes `db` (a Kysely instance on `sqlite`, preparing through `statements`) reachable by {@link idleSqlite}. */
export function attachDirectSqlite(
  db: Db,
  sqlite: BetterSqlite3.Database,
  statements: CachedStatements,
  camelCase: SvcCamelCasePlugin,
): void {
  connections.set(db, new Connection(sqlite, statements, camelCase));
}

/**
 * The direct connection of `db` when a statement may run on it now: `db` is a SQLite database (not a
 * transaction of one) and no transaction is open on its connection. Otherwise undefined, and the caller
 * goes through Kysely.
 */
export function idleSqlite(db: Db): DirectSqlite | undefined {
  const connection = connections.get(db);
  return connection?.idle() === true ? connection : undefined;
}

class Connection implements DirectSqlite {
  readonly #sqlite: BetterSqlite3.Database;
  readonly #statements: CachedStatements;
  readonly #camelCase: SvcCamelCasePlugin;
  /** The row mapper of each statement that reads, made from its columns when it first runs here. */
  readonly #mappers = new WeakMap<GuardedStatement, RowMapper>();
  /**
   * One better-sqlite3 transaction function for every call, given the work as its argument: making one
   * per call builds five wrapper functions each time, about 3 µs of every grant.
   */
  readonly #inTransaction: (work: () => unknown) => unknown;

  constructor(sqlite: BetterSqlite3.Database, statements: CachedStatements, camelCase: SvcCamelCasePlugin) {
    this.#sqlite = sqlite;
    this.#statements = statements;
    this.#camelCase = camelCase;
    this.#inTransaction = sqlite.transaction((work: () => unknown) => work());
  }

  idle(): boolean {
    return this.#sqlite.open && !this.#sqlite.inTransaction;
  }

  execute<R>(query: CompiledQuery<R>): QueryResult<R> {
    // The same statement cache Kysely prepares through; the same result shape as its SQLite driver.
    const statement = this.#statements.prepare(query.sql);
    if (statement.reader) {
      let mapper = this.#mappers.get(statement);
      if (mapper === undefined) {
        mapper = this.#camelCase.rowMapper(statement.columns().map((column) => column.name));
        this.#mappers.set(statement, mapper);
      }
      const rows = statement.all(query.parameters) as Record<string, unknown>[];
      return { rows: rows.map(mapper) as R[] };
    }
    const { changes, lastInsertRowid } = statement.run(query.parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  transaction<T>(work: () => T): T {
    // BEGIN and COMMIT run inside better-sqlite3: a busy or failing database is an outage there too.
    return guard(() => this.#inTransaction(work)) as T;
  }
}

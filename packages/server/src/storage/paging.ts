import { sql, type SelectQueryBuilder } from 'kysely';
import { SvcValidationError } from '../kernel/errors.js';

/**
 * Keyset paging over (time, id), newest first: the cursor is the last row's position, so a page costs
 * the same however deep it is and rows inserted meanwhile never shift the next page.
 */
export interface Cursor {
  readonly at: number;
  readonly id: string;
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.at, cursor.id]), 'utf8').toString('base64url');
}

// Row ids are `<prefix>_<hex>`; anything else in a cursor was not issued by a list (and a NUL would make
// PostgreSQL fail the query with a 500 instead of the 400 a bad cursor deserves).
const ID_PATTERN = /^[A-Za-z0-9_-]{1,200}$/;

export function decodeCursor(value: string | undefined): Cursor | undefined {
  if (value === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    if (
      Array.isArray(parsed) &&
      parsed.length === 2 &&
      Number.isSafeInteger(parsed[0]) &&
      typeof parsed[1] === 'string' &&
      ID_PATTERN.test(parsed[1])
    ) {
      return { at: parsed[0] as number, id: parsed[1] };
    }
  } catch {
    // fall through to the validation error below
  }
  throw new SvcValidationError('The cursor is not valid; pass the nextCursor of the previous page.', [
    { path: 'cursor', message: 'not a cursor issued by this list' },
  ]);
}

/** Splits `limit + 1` fetched rows into a page and the cursor of the next one. */
function toPage<Row, T>(
  rows: readonly Row[],
  limit: number,
  position: (row: Row) => Cursor,
  map: (row: Row) => T,
): { data: T[]; nextCursor: string | null } {
  const pageRows = rows.slice(0, limit);
  const last = pageRows.at(-1);
  return {
    data: pageRows.map(map),
    nextCursor: rows.length > limit && last !== undefined ? encodeCursor(position(last)) : null,
  };
}

/**
 * Runs `query` as one keyset page, newest first on (`timeColumn`, `idColumn`): strictly after the
 * cursor's row, `limit + 1` rows fetched to learn whether another page follows. A bad cursor is a 400
 * before any query. A query that joins names both columns with their table (`m.createdAt`, `m.id`).
 */
export async function fetchNewestFirst<DB, TB extends keyof DB, Row extends { id: string }, T>(
  query: SelectQueryBuilder<DB, TB, Row>,
  timeColumn: string,
  page: { readonly limit: number; readonly cursor?: string | undefined },
  time: (row: Row) => number,
  map: (row: Row) => T,
  idColumn = 'id',
): Promise<{ data: T[]; nextCursor: string | null }> {
  const after = decodeCursor(page.cursor);
  const at = sql.ref(timeColumn);
  const id = sql.ref(idColumn);
  const bounded =
    after === undefined
      ? query
      : // A row value, not `at < x or (at = x and id < y)`: SQLite and PostgreSQL seek the (time, id)
        // index to a row-value bound, while the OR form walks the index from the newest row down.
        query.where(sql<boolean>`(${at}, ${id}) < (${after.at}, ${after.id})`);
  const rows = await bounded
    .orderBy(at, 'desc')
    .orderBy(id, 'desc')
    .limit(page.limit + 1)
    .execute();
  return toPage(rows, page.limit, (row) => ({ at: time(row), id: row.id }), map);
}

/**
 * {@link fetchNewestFirst} for a table whose ids lead with their creation time (kernel/ids.ts: token
 * sessions): ordered and bounded by the id alone (`idColumn`, qualified in a join), so that the primary
 * key serves the order and no (time, id) index costs each new row an entry. The cursor keeps its (time,
 * id) form.
 */
export async function fetchNewestIdFirst<DB, TB extends keyof DB, Row extends { id: string }, T>(
  query: SelectQueryBuilder<DB, TB, Row>,
  page: { readonly limit: number; readonly cursor?: string | undefined },
  time: (row: Row) => number,
  map: (row: Row) => T,
  idColumn = 'id',
): Promise<{ data: T[]; nextCursor: string | null }> {
  const after = decodeCursor(page.cursor);
  const id = sql.ref(idColumn);
  const bounded = after === undefined ? query : query.where(sql<boolean>`${id} < ${after.id}`);
  const rows = await bounded
    .orderBy(id, 'desc')
    .limit(page.limit + 1)
    .execute();
  return toPage(rows, page.limit, (row) => ({ at: time(row), id: row.id }), map);
}

import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../database.js';
import { isSqlite } from '../migrations/dialect.js';

/**
 * The text comparisons of the operator lists' searches (docs/reference/operator-api.md "Lists"):
 * in any case, SQLite's LIKE folding ASCII letters and PostgreSQL's ILIKE every letter. No B-tree index
 * serves "contains"; the lists walk their (time, id) order and stop at the first full page. Neither side
 * is wrapped in lower(): SQLite's LIKE ignores ASCII case already, and a lower() per row doubles the
 * cost of a walk.
 */

/**
 * Escapes LIKE wildcards so that a term is matched literally: `oauth.direct_login.` must not match
 * `oauth.directXlogin.` through `_`. The escape character is declared explicitly (`ESCAPE '\'`) because
 * SQLite has no default one.
 */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

function likeAnyCase(db: Db, column: string, pattern: string): RawBuilder<SqlBool> {
  const operator = sql.raw(isSqlite(db) ? 'like' : 'ilike');
  return sql<SqlBool>`${sql.ref(column)} ${operator} ${pattern} escape '\\'`;
}

/** `column` contains `text`, in any case. */
export function containsText(db: Db, column: string, text: string): RawBuilder<SqlBool> {
  return likeAnyCase(db, column, `%${escapeLike(text)}%`);
}

/** `column` starts with `prefix`, in any case. */
export function startsWithText(db: Db, column: string, prefix: string): RawBuilder<SqlBool> {
  return likeAnyCase(db, column, `${escapeLike(prefix)}%`);
}

/**
 * A record (of a table with `name` and `id`) whose name contains `text`, whose `keyColumn` (a slug, a
 * clientId) starts with it, or whose id is it: the search of the organization and client lists.
 */
export function nameKeyOrId(db: Db, keyColumn: string, text: string): RawBuilder<SqlBool> {
  const name = containsText(db, 'name', text);
  return sql<SqlBool>`(${name} or ${startsWithText(db, keyColumn, text)} or ${sql.ref('id')} = ${text})`;
}

/** `column`, a stored key already folded (an email key), starts with `prefix` folded the same way. */
export function keyStartsWith(column: string, prefix: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} like ${`${escapeLike(prefix)}%`} escape '\\'`;
}

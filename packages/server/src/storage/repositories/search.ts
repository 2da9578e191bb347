import { sql, type RawBuilder, type SqlBool } from 'kysely';

/**
 * The text comparisons of the operator lists' searches (docs/decisions/admin-console-directory-api.md).
 * Both sides go through lower(), so a term matches in any case: SQLite's lower() folds ASCII letters,
 * PostgreSQL's every letter. No B-tree index serves "contains"; the lists walk their (time, id) order and
 * stop at the first full page.
 */

/**
 * Escapes LIKE wildcards so that a term is matched literally: `oauth.direct_login.` must not match
 * `oauth.directXlogin.` through `_`. The escape character is declared explicitly (`ESCAPE '\'`) because
 * SQLite has no default one.
 */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** `column` contains `text`, in any case. */
export function containsText(column: string, text: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`lower(${sql.ref(column)}) like lower(${`%${escapeLike(text)}%`}) escape '\\'`;
}

/** `column` starts with `prefix`, in any case. */
export function startsWithText(column: string, prefix: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`lower(${sql.ref(column)}) like lower(${`${escapeLike(prefix)}%`}) escape '\\'`;
}

/** `column`, a stored key already folded (an email key), starts with `prefix` folded the same way. */
export function keyStartsWith(column: string, prefix: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} like ${`${escapeLike(prefix)}%`} escape '\\'`;
}

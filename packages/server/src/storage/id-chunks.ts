/**
 * Ids in lists short enough for one `IN (…)` on both databases (SQLite and PostgreSQL cap the bound
 * parameters of a statement; a SCIM group holds up to 10,000 members).
 */
export function idChunks(ids: readonly string[], size = 500): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < ids.length; i += size) out.push(ids.slice(i, i + size));
  return out;
}

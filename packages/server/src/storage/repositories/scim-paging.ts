import type { SelectQueryBuilder } from 'kysely';
import type { ScimPage, ScimPageQuery } from '../../scim/repository.js';
import type { Database } from '../schema.js';

/**
 * One SCIM list page (RFC 7644 §3.4.2.4): the total of the filtered rows, and `count` rows from the
 * 1-based `startIndex` in the query's order. IdPs page with small counts, so an offset is fine here.
 */
export async function scimPage<TB extends keyof Database, Row, T>(
  total: SelectQueryBuilder<Database, TB, { total: string | number | bigint }>,
  rows: SelectQueryBuilder<Database, TB, Row>,
  page: ScimPageQuery,
  map: (row: Row) => T,
): Promise<ScimPage<T>> {
  const counted = await total.executeTakeFirst();
  const totalResults = Number(counted?.total ?? 0);
  if (page.count === 0 || page.startIndex > totalResults) return { totalResults, resources: [] };
  const found = await rows
    .limit(page.count)
    .offset(page.startIndex - 1)
    .execute();
  return { totalResults, resources: found.map(map) };
}

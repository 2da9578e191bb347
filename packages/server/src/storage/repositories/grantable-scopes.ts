import type { GrantableScopesSource } from '../../oauth/discovery/repository.js';
import type { Db } from '../database.js';

/** Reads the allow-lists of active clients for discovery's scopes_supported. */
export function grantableScopesSource(db: Db): GrantableScopesSource {
  return {
    async allowedScopeLists() {
      const rows = await db
        .selectFrom('clients')
        .select('allowedScopesJson')
        .distinct()
        .where('active', '=', 1)
        .execute();
      return rows.map((row) => JSON.parse(row.allowedScopesJson) as string[]);
    },
  };
}

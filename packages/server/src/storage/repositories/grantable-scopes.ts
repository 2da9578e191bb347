import type { GrantableScopesSource } from '../../oauth/discovery/repository.js';
import type { Db } from '../database.js';

/**
 * Reads the allow-lists of active clients that an operator created, for discovery's scopes_supported:
 * a dynamically registered client's scopes are whatever it asked for within the ceiling, and the
 * ceiling stands for them (docs/decisions/dynamic-client-registration.md).
 */
export function grantableScopesSource(db: Db): GrantableScopesSource {
  return {
    async allowedScopeLists() {
      const rows = await db
        .selectFrom('clients')
        .select('allowedScopesJson')
        .distinct()
        .where('active', '=', 1)
        .where('registrationJson', 'is', null)
        .execute();
      return rows.map((row) => JSON.parse(row.allowedScopesJson) as string[]);
    },
  };
}

import type { ConnectionListInput, OrganizationRef, Page } from '@svc/contract';
import type { Selectable } from 'kysely';
import type { Db } from '../database.js';
import { fetchNewestFirst } from '../paging.js';
import type { Database } from '../schema.js';

type ConnectionTable = 'ssoConnections' | 'scimConnections';

/**
 * The console-wide list of a connection table: newest first on (created_at, id) (0046's index), filtered
 * by organization and enabled state, each row with its organization's name. The name comes from a scalar
 * subquery rather than a join, so that the keyset columns stay unambiguous.
 */
export function listConnectionsWithOrganization<T extends ConnectionTable, R>(
  db: Db,
  table: T,
  query: ConnectionListInput,
  toRecord: (row: Selectable<Database[T]>) => R,
): Promise<Page<{ readonly connection: R; readonly organization: OrganizationRef }>> {
  const { organizationId, enabled } = query;
  const rows = db
    .selectFrom(table as ConnectionTable)
    .selectAll()
    .select((eb) =>
      eb
        .selectFrom('organizations')
        .select('organizations.name')
        .whereRef('organizations.id', '=', `${table as ConnectionTable}.organizationId`)
        .as('organizationName'),
    )
    .$if(organizationId !== undefined, (qb) => qb.where('organizationId', '=', organizationId ?? ''))
    .$if(enabled !== undefined, (qb) => qb.where('enabled', '=', enabled === true ? 1 : 0));
  return fetchNewestFirst(
    rows,
    'createdAt',
    query,
    (row) => row.createdAt,
    ({ organizationName, ...row }) => ({
      connection: toRecord(row as unknown as Selectable<Database[T]>),
      organization: { id: row.organizationId, name: organizationName ?? '' },
    }),
  );
}

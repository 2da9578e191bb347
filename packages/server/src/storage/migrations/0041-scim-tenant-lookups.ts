import { type Kysely } from 'kysely';

/**
 * Two look-ups that cross SCIM connections (docs/decisions/scim-tenant-boundary.md): the SCIM records of
 * one account, whichever connection holds them (whether another tenant holds the account too), and the
 * connections whose grant boundary is a given FGA resource (whose grants a resource move may take
 * outside it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('scim_users_user_idx').on('scim_users').column('user_id').execute();
  await db.schema
    .createIndex('scim_connections_grant_boundary_idx')
    .on('scim_connections')
    .column('grant_boundary_resource_id')
    .execute();
}

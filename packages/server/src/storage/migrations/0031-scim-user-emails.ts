import { sql, type Kysely } from 'kysely';

/**
 * Users per page of the backfill: 100 users of at most 50 addresses bind at most 20,000 parameters in one
 * INSERT, under SQLite's 32,766.
 */
const BATCH = 100;

/**
 * Every address of a SCIM user's `emails`, with the item's type, for the `emails.value eq` filter
 * (RFC 7644 §3.4.2.2 matches any of the values; 0027 kept the primary one only, in
 * `scim_users.email_key`). Key: the email lookup key (docs/reference/organizations.md "Email identity"); type
 * lower-cased, '' without one. The rows go with their SCIM user (foreign key, cascade).
 * `scim_users.email_key` and its index stay, no longer written: nodes of the earlier release still write them
 * while an upgrade rolls out, and would fail every SCIM user write without them (docs/deploy.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('scim_user_emails')
    .addColumn('connection_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('email_key', 'text', (c) => c.notNull())
    .addColumn('type_key', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('scim_user_emails_pk', ['connection_id', 'user_id', 'email_key', 'type_key'])
    .addForeignKeyConstraint(
      'scim_user_emails_user_fk',
      ['connection_id', 'user_id'],
      'scim_users',
      ['connection_id', 'user_id'],
      (c) => c.onDelete('cascade'),
    )
    .execute();
  // The filter's look-up; an address may be several users' (not unique).
  await db.schema
    .createIndex('scim_user_emails_key_idx')
    .on('scim_user_emails')
    .columns(['connection_id', 'email_key'])
    .execute();

  await backfill(db);
}

/**
 * The rows of the users provisioned before this migration, from the resource each one stored, a page of
 * users at a time (a directory may hold millions). Items longer than the API now accepts (an address of
 * 320 characters or of 1,024 bytes once upper-cased, a type of 64 characters) are left out: no valid
 * address is that long.
 */
async function backfill(db: Kysely<unknown>): Promise<void> {
  let after: { connection: string; usr: string } | undefined;
  for (;;) {
    // Single-word aliases: the connection's camel-case plugin renames result columns with underscores.
    const page = await sql<{ connection: string; usr: string; resource: string }>`
      select connection_id as connection, user_id as usr, resource_json as resource from scim_users
      ${after === undefined ? sql`` : sql`where (connection_id, user_id) > (${after.connection}, ${after.usr})`}
      order by connection_id, user_id limit ${BATCH}
    `.execute(db);
    const rows = page.rows.flatMap((user) => emailRows(user.connection, user.usr, user.resource));
    if (rows.length > 0) {
      const values = rows.map((row) => sql`(${sql.join(row)})`);
      await sql`
        insert into scim_user_emails (connection_id, user_id, email_key, type_key) values ${sql.join(values)}
      `.execute(db);
    }
    if (page.rows.length < BATCH) return;
    after = page.rows[page.rows.length - 1];
  }
}

/** The distinct rows of one user's stored resource. */
function emailRows(connection: string, user: string, resourceJson: string): string[][] {
  const unique = new Map<string, string[]>();
  for (const { value, type } of storedEmails(resourceJson)) {
    // The key as this release computed it, written out: a migration must not change with the runtime's
    // key (0043 recomputes the addresses that are not ASCII).
    const key = value.trim().toUpperCase();
    if (key === '' || value.length > 320 || Buffer.byteLength(key) > 1024 || type.length > 64) continue;
    const row = [connection, user, key, type.trim().toLowerCase()];
    unique.set(JSON.stringify(row), row);
  }
  return [...unique.values()];
}

/** The `emails` items of a stored resource that have a string value (type '' when it has none); 0043 too. */
export function storedEmails(resourceJson: string): { value: string; type: string }[] {
  let resource: unknown;
  try {
    resource = JSON.parse(resourceJson);
  } catch {
    return [];
  }
  const emails = (resource as { emails?: unknown } | null)?.emails;
  if (!Array.isArray(emails)) return [];
  return emails.flatMap((item: unknown) => {
    const { value, type } = (item ?? {}) as { value?: unknown; type?: unknown };
    return typeof value === 'string' ? [{ value, type: typeof type === 'string' ? type : '' }] : [];
  });
}

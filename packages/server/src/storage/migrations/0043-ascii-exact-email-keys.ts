import { domainToASCII } from 'node:url';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { storedEmails } from './0031-scim-user-emails.js';
import { isSqlite } from './dialect.js';

/** SCIM users per page of the recomputation, as 0031 pages them. */
const BATCH = 100;

/**
 * Email keys become ASCII-exact (docs/decisions/admin-email-identity-ascii-exact.md): the stored keys of every
 * address that is not printable ASCII are recomputed; an ASCII address keeps its key (the rule is the
 * same for it). In `users`, `invitations` and `scim_user_emails`; an email verification token follows
 * its user's key. Email OTP challenges (10 minutes) are left to expire: a login code goes to the
 * account's own address whatever key found it.
 *
 * - An address the key refuses (not ASCII before the @, or a domain IDNA cannot convert) keeps its row
 *   with a key of its own: the address with its ASCII letters upper-cased. That key holds a non-ASCII
 *   character, which no key of an accepted address does, so it can no longer collide; no lookup reaches
 *   it, since the runtime refuses the address before looking it up.
 * - Users: every such row first takes that own key, which frees the key an address like `ceo@gıthub.test`
 *   held (CEO@GITHUB.TEST); then, oldest account first, a row takes its new key unless another account
 *   has it already (say both `ann@bücher.example` and `ann@xn--bcher-kva.example` existed): the later
 *   one keeps its own key, so no two accounts are ever merged and none fails the unique index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Kysely runs PostgreSQL's migrations in a transaction, SQLite's not: all or nothing on both.
  if (isSqlite(db)) await db.transaction().execute(rekey);
  else await rekey(db);
}

async function rekey(db: Kysely<unknown>): Promise<void> {
  await rekeyUsers(db);
  const invitations = await sql<{ id: string; email: string }>`
    select id, email from invitations where ${notAscii(db, 'email')}
  `.execute(db);
  for (const row of invitations.rows) {
    await sql`update invitations set email_key = ${keyOf(row.email) ?? ownKeyOf(row.email)}
      where id = ${row.id}`.execute(db);
  }
  await rekeyScimEmails(db);
}

async function rekeyUsers(db: Kysely<unknown>): Promise<void> {
  const users = await sql<{ id: string; email: string; key: string }>`
    select id, email, email_key as key from users where ${notAscii(db, 'email')} order by created_at, id
  `.execute(db);
  for (const user of users.rows) {
    await sql`update users set email_key = ${ownKeyOf(user.email)} where id = ${user.id}`.execute(db);
  }
  for (const user of users.rows) {
    const wanted = keyOf(user.email);
    const taken =
      wanted !== undefined &&
      (await sql`select 1 from users where email_key = ${wanted}`.execute(db)).rows.length > 0;
    const key = wanted === undefined || taken ? ownKeyOf(user.email) : wanted;
    if (wanted !== undefined && !taken) {
      await sql`update users set email_key = ${key} where id = ${user.id}`.execute(db);
    }
    // A verification link sent before follows its account to the new key (it is bound to the key).
    await sql`update email_verification_tokens set email_key = ${key}
      where user_id = ${user.id} and email_key = ${user.key}`.execute(db);
  }
}

/** The `emails.value` rows of SCIM users whose stored resource holds a character that is not ASCII. */
async function rekeyScimEmails(db: Kysely<unknown>): Promise<void> {
  let after: { connection: string; usr: string } | undefined;
  for (;;) {
    const page = await sql<{ connection: string; usr: string; resource: string }>`
      select connection_id as connection, user_id as usr, resource_json as resource from scim_users
      where ${notAscii(db, 'resource_json')}
      ${after === undefined ? sql`` : sql`and (connection_id, user_id) > (${after.connection}, ${after.usr})`}
      order by connection_id, user_id limit ${BATCH}
    `.execute(db);
    for (const user of page.rows) {
      await sql`delete from scim_user_emails where connection_id = ${user.connection}
        and user_id = ${user.usr}`.execute(db);
      for (const [key, type] of emailRows(user.resource)) {
        await sql`insert into scim_user_emails (connection_id, user_id, email_key, type_key)
          values (${user.connection}, ${user.usr}, ${key}, ${type})`.execute(db);
      }
    }
    if (page.rows.length < BATCH) return;
    after = page.rows[page.rows.length - 1];
  }
}

/** A column holding a character outside printable ASCII (a dialect's own pattern syntax). */
function notAscii(db: Kysely<unknown>, column: string): RawBuilder<unknown> {
  return isSqlite(db) ? sql`${sql.ref(column)} glob ${'*[^ -~]*'}` : sql`${sql.ref(column)} ~ ${'[^ -~]'}`;
}

/** The distinct [key, type] rows of a stored resource's `emails`, with 0031's bounds. */
function emailRows(resourceJson: string): [string, string][] {
  const unique = new Map<string, [string, string]>();
  for (const { value, type } of storedEmails(resourceJson)) {
    const key = keyOf(value) ?? ownKeyOf(value);
    if (value.trim() === '' || value.length > 320 || Buffer.byteLength(key) > 1024 || type.length > 64)
      continue;
    const row: [string, string] = [key, type.trim().toLowerCase()];
    unique.set(JSON.stringify(row), row);
  }
  return [...unique.values()];
}

// The key rule of this release, written out (as directory/email-key.ts has it today): a migration must not
// change with the runtime's key.

function asciiUpperCase(value: string): string {
  return value.replace(/[a-z]+/g, (letters) => letters.toUpperCase());
}

/** The key of an accepted address, or undefined for one the rule refuses. */
function keyOf(raw: string): string | undefined {
  const address = raw.trim();
  const at = address.lastIndexOf('@');
  if (at < 1 || at === address.length - 1) return undefined;
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (!/^[\x20-\x7e]+$/.test(local)) return undefined;
  if (/^[\x21-\x7e]+$/.test(domain)) return `${asciiUpperCase(local)}@${asciiUpperCase(domain)}`;
  if (/[^A-Za-z0-9.\-\u{80}-\u{10ffff}]/u.test(domain)) return undefined;
  const aLabel = domainToASCII(domain);
  return aLabel === '' ? undefined : `${asciiUpperCase(local)}@${asciiUpperCase(aLabel)}`;
}

/** The key a refused (or colliding) address keeps: its own, which no accepted address's key equals. */
function ownKeyOf(raw: string): string {
  return asciiUpperCase(raw.trim());
}

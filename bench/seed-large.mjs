// `--seed-large`: fills a bench database with 1,000,000 users, 10,000 organizations (one membership per
// user) and 500,000 sessions, so that the bench can show that cost does not grow with data. Rows go in
// with multi-row inserts inside large transactions straight through the service's Kysely handle: the
// admin API would take hours for a million argon2id hashes, and every seeded user shares one hash.

/** How many rows one INSERT carries (SQLite allows 32,766 bound values; users have 12 columns). */
const ROWS_PER_INSERT = 1_000;
/** How many inserts one transaction carries. */
const INSERTS_PER_TRANSACTION = 50;

export const LARGE_SEED = Object.freeze({ users: 1_000_000, organizations: 10_000, sessions: 500_000 });

/** The address of seeded user `i` (the bench signs some of them in). */
export const seededEmail = (i) => `bench-user-${i}@example.com`;

/**
 * Inserts the rows. `passwordHash` is one argon2id PHC string every user gets; `clientId` the OAuth
 * client the sessions belong to; `onProgress(table, done, total)` is called after every transaction.
 */
export async function seedLarge(
  db,
  { passwordHash, clientId, now = Date.now(), counts = LARGE_SEED, onProgress },
) {
  const pad = (n) => String(n).padStart(8, '0');
  await fill(db, 'organizations', counts.organizations, onProgress, (i) => ({
    id: `org_bench${pad(i)}`,
    name: `Bench Organization ${i}`,
    slug: `bench-organization-${i}`,
    primaryDomain: null,
    active: 1,
    createdAt: now - counts.organizations + i,
    updatedAt: now,
  }));
  await fill(db, 'users', counts.users, onProgress, (i) => ({
    id: `usr_bench${pad(i)}`,
    displayName: `Bench User ${i}`,
    email: seededEmail(i),
    emailKey: seededEmail(i).toUpperCase(),
    emailVerified: 1,
    passwordHash,
    isOperator: 0,
    active: 1,
    createdAt: now - counts.users + i,
    updatedAt: now,
  }));
  await fill(db, 'memberships', counts.users, onProgress, (i) => ({
    id: `mem_bench${pad(i)}`,
    organizationId: `org_bench${pad(i % counts.organizations)}`,
    userId: `usr_bench${pad(i)}`,
    role: 'member',
    active: 1,
    createdAt: now,
    updatedAt: now,
  }));
  const day = 24 * 60 * 60 * 1000;
  await fill(db, 'sessions', counts.sessions, onProgress, (i) => ({
    id: `ses_bench${pad(i)}`,
    userId: `usr_bench${pad(i * 2)}`,
    clientId,
    organizationId: null,
    grantedScopesJson: '["openid"]',
    resource: null,
    amrJson: '["pwd"]',
    authTime: now,
    userAgent: null,
    ipAddress: null,
    createdAt: now - counts.sessions + i,
    lastSeenAt: now,
    idleExpiresAt: now + 30 * day,
    absoluteExpiresAt: now + 90 * day,
    revokedAt: null,
    revokedReason: null,
  }));
}

async function fill(db, table, total, onProgress, row) {
  for (let start = 0; start < total;) {
    await db.transaction().execute(async (trx) => {
      for (let n = 0; n < INSERTS_PER_TRANSACTION && start < total; n += 1) {
        const rows = [];
        for (let i = start; i < Math.min(total, start + ROWS_PER_INSERT); i += 1) rows.push(row(i));
        await trx.insertInto(table).values(rows).execute();
        start += rows.length;
      }
    });
    onProgress?.(table, start, total);
  }
}

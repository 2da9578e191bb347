import { sha256Hex } from '../kernel/crypto.js';
import type { Db } from '../storage/database.js';

/**
 * Bare user rows `ids` (address `{id}@example.com`, active, no password), for storage tests of tables that
 * reference users.
 */
export async function insertUserRows(db: Db, ids: readonly string[], createdAt: number): Promise<void> {
  for (const id of ids) {
    await db
      .insertInto('users')
      .values({
        id,
        displayName: id,
        email: `${id}@example.com`,
        emailKey: `${id}@EXAMPLE.COM`,
        emailVerified: 1,
        passwordHash: null,
        isOperator: 0,
        active: 1,
        createdAt,
        updatedAt: createdAt,
      })
      .execute();
  }
}

/** Bare organization rows `ids` (named and slugged after their ids, active), for tables that reference them. */
export async function insertOrganizationRows(
  db: Db,
  ids: readonly string[],
  createdAt: number,
): Promise<void> {
  for (const id of ids) {
    await db
      .insertInto('organizations')
      .values({ id, name: id, slug: id, primaryDomain: null, active: 1, createdAt, updatedAt: createdAt })
      .execute();
  }
}

/** A bare enabled SCIM connection row of an existing organization, for tables that reference connections. */
export async function insertScimConnectionRow(
  db: Db,
  id: string,
  organizationId: string,
  createdAt: number,
): Promise<void> {
  await db
    .insertInto('scimConnections')
    .values({
      id,
      organizationId,
      displayName: id,
      enabled: 1,
      tokenHash: sha256Hex(id),
      grantBoundaryResourceId: null,
      owner: 'dashboard',
      createdAt,
      updatedAt: createdAt,
    })
    .execute();
}

/** A bare draft SSO connection row of an existing organization, for tables that reference connections. */
export async function insertSsoConnectionRow(
  db: Db,
  id: string,
  organizationId: string,
  createdAt: number,
): Promise<void> {
  await db
    .insertInto('ssoConnections')
    .values({
      id,
      organizationId,
      displayName: id,
      primaryDomain: null,
      autoProvisionUsers: 0,
      autoLinkByEmail: 0,
      enabled: 0,
      spEntityId: `https://sp.example.com/${id}`,
      acsUrl: `https://sp.example.com/${id}/acs`,
      idpEntityId: null,
      idpSsoUrl: null,
      idpSigningCertificatesJson: '[]',
      metadataImportedAt: null,
      createdAt,
      updatedAt: createdAt,
    })
    .execute();
}

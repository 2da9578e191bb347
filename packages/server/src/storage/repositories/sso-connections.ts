import type { Selectable } from 'kysely';
import type {
  SsoConnectionChanges,
  SsoConnectionRecord,
  SsoConnectionRepository,
} from '../../federation/saml/repository.js';
import type { Db } from '../database.js';
import { fetchNewestFirst } from '../paging.js';
import type { SsoConnectionsTable } from '../schema.js';
import { listConnectionsWithOrganization } from './connection-lists.js';
import { parseStringList } from './json-columns.js';
import { flag, jsonList } from './partial-updates.js';

function toRecord(row: Selectable<SsoConnectionsTable>): SsoConnectionRecord {
  return {
    id: row.id,
    organizationId: row.organizationId,
    displayName: row.displayName,
    primaryDomain: row.primaryDomain,
    autoProvisionUsers: row.autoProvisionUsers === 1,
    autoLinkByEmail: row.autoLinkByEmail === 1,
    enabled: row.enabled === 1,
    spEntityId: row.spEntityId,
    acsUrl: row.acsUrl,
    idpEntityId: row.idpEntityId,
    idpSsoUrl: row.idpSsoUrl,
    idpSigningCertificates: parseStringList(row.idpSigningCertificatesJson),
    metadataImportedAt: row.metadataImportedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** SAML SSO connections in `sso_connections`. */
export function ssoConnectionRepository(db: Db): SsoConnectionRepository {
  const oldestEnabled = async (column: 'primaryDomain' | 'organizationId', value: string) => {
    const row = await db
      .selectFrom('ssoConnections')
      .selectAll()
      .where(column, '=', value)
      .where('enabled', '=', 1)
      .orderBy('createdAt')
      .orderBy('id')
      .executeTakeFirst();
    return row === undefined ? undefined : toRecord(row);
  };
  return {
    async insert(record) {
      await db
        .insertInto('ssoConnections')
        .values({
          id: record.id,
          organizationId: record.organizationId,
          displayName: record.displayName,
          primaryDomain: record.primaryDomain,
          autoProvisionUsers: flag(record.autoProvisionUsers) ?? 0,
          autoLinkByEmail: flag(record.autoLinkByEmail) ?? 0,
          enabled: flag(record.enabled) ?? 0,
          spEntityId: record.spEntityId,
          acsUrl: record.acsUrl,
          idpEntityId: record.idpEntityId,
          idpSsoUrl: record.idpSsoUrl,
          idpSigningCertificatesJson: JSON.stringify(record.idpSigningCertificates),
          metadataImportedAt: record.metadataImportedAt,
          createdAt: record.createdAt,
          updatedAt: record.updatedAt,
        })
        .execute();
    },

    async findById(id) {
      const row = await db.selectFrom('ssoConnections').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    findEnabledByPrimaryDomain(domain) {
      return oldestEnabled('primaryDomain', domain);
    },

    async findEnabledByOrganizationPrimaryDomain(domain) {
      const row = await db
        .selectFrom('ssoConnections as c')
        .innerJoin('organizations as o', 'o.id', 'c.organizationId')
        .selectAll('c')
        .where('o.primaryDomain', '=', domain)
        .where('c.enabled', '=', 1)
        .orderBy('o.createdAt')
        .orderBy('o.id')
        .orderBy('c.createdAt')
        .orderBy('c.id')
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    findEnabledForOrganization(organizationId) {
      return oldestEnabled('organizationId', organizationId);
    },

    list(query) {
      return listConnectionsWithOrganization(db, 'ssoConnections', query, toRecord);
    },

    listForOrganization(organizationId, page) {
      return fetchNewestFirst(
        db.selectFrom('ssoConnections').selectAll().where('organizationId', '=', organizationId),
        'createdAt',
        page,
        (row) => row.createdAt,
        toRecord,
      );
    },

    async update(id, changes: SsoConnectionChanges, now) {
      const row = await db
        .updateTable('ssoConnections')
        .set({
          enabled: flag(changes.enabled),
          idpEntityId: changes.idpEntityId,
          idpSsoUrl: changes.idpSsoUrl,
          idpSigningCertificatesJson: jsonList(changes.idpSigningCertificates),
          metadataImportedAt: changes.metadataImportedAt,
          updatedAt: now,
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },
  };
}

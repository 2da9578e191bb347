import type { Insertable, Selectable } from 'kysely';
import {
  OIDC_CLIENT_AUTH_METHODS,
  OIDC_MAPPED_CLAIMS,
  OIDC_PROVIDER_TYPES,
  type OidcClaimMappingInput,
  type OidcClientAuthMethod,
  type OidcProviderType,
} from '@svc/contract';
import type {
  OidcConnectionChanges,
  OidcConnectionRecord,
  OidcConnectionRepository,
} from '../../federation/oidc/repository.js';
import type { Db } from '../database.js';
import { fetchNewestFirst } from '../paging.js';
import type { OidcConnectionsTable } from '../schema.js';
import { parseStringList } from './json-columns.js';
import { flag, jsonList } from './partial-updates.js';

/** A stored provider type, checked. */
export function providerTypeOf(value: string): OidcProviderType {
  const type = OIDC_PROVIDER_TYPES.find((known) => known === value);
  // Only a newer release writes another type; reading it as some other provider would misroute sign-in.
  if (type === undefined) throw new Error(`Unknown OIDC provider type '${value}' in oidc_connections.`);
  return type;
}

function claimMappingOf(json: string | null): OidcClaimMappingInput | null {
  if (json === null) return null;
  const parsed: unknown = JSON.parse(json);
  if (typeof parsed !== 'object' || parsed === null) return null;
  const mapping: Record<string, string> = {};
  for (const claim of OIDC_MAPPED_CLAIMS) {
    const name = (parsed as Record<string, unknown>)[claim];
    if (typeof name === 'string') mapping[claim] = name;
  }
  return mapping;
}

function toRecord(row: Selectable<OidcConnectionsTable>): OidcConnectionRecord {
  return {
    id: row.id,
    providerType: providerTypeOf(row.providerType),
    displayName: row.displayName,
    clientId: row.clientId,
    clientSecretSealed: row.clientSecretSealed,
    allowedCallbackUris: parseStringList(row.allowedCallbackUrisJson),
    useDiscovery: row.useDiscovery === 1,
    discoveryUrl: row.discoveryUrl,
    issuer: row.issuer,
    authorizationEndpoint: row.authorizationEndpoint,
    tokenEndpoint: row.tokenEndpoint,
    userInfoEndpoint: row.userInfoEndpoint,
    jwksUri: row.jwksUri,
    microsoftTenant: row.microsoftTenant,
    scopes: parseStringList(row.scopesJson),
    claimMapping: claimMappingOf(row.claimMappingJson),
    // A method written by a newer release reads as the default rather than failing the read.
    clientAuthMethod: (OIDC_CLIENT_AUTH_METHODS as readonly string[]).includes(row.clientAuthMethod)
      ? (row.clientAuthMethod as OidcClientAuthMethod)
      : 'ClientSecretPost',
    useUserInfo: row.useUserInfo === null ? null : row.useUserInfo === 1,
    appleTeamId: row.appleTeamId,
    appleKeyId: row.appleKeyId,
    applePrivateKeySealed: row.applePrivateKeySealed,
    logoDataUrl: row.logoDataUrl,
    organizationId: row.organizationId,
    enabled: row.enabled === 1,
    owner: row.owner === 'code' ? 'code' : 'dashboard',
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

type StoredFields = Required<OidcConnectionChanges>;
type FieldColumns = Omit<Insertable<OidcConnectionsTable>, 'id' | 'owner' | 'createdAt' | 'updatedAt'>;

/**
 * The columns of a connection's fields: all of them for an insert, or those of a change, where undefined
 * leaves a column as it is (Kysely drops undefined values from a SET).
 */
function columns(fields: StoredFields): FieldColumns;
function columns(changes: OidcConnectionChanges): { [K in keyof FieldColumns]?: FieldColumns[K] | undefined };
function columns(changes: OidcConnectionChanges): {
  [K in keyof FieldColumns]?: FieldColumns[K] | undefined;
} {
  const { claimMapping, useUserInfo } = changes;
  return {
    providerType: changes.providerType,
    displayName: changes.displayName,
    clientId: changes.clientId,
    clientSecretSealed: changes.clientSecretSealed,
    allowedCallbackUrisJson: jsonList(changes.allowedCallbackUris),
    useDiscovery: flag(changes.useDiscovery),
    discoveryUrl: changes.discoveryUrl,
    issuer: changes.issuer,
    authorizationEndpoint: changes.authorizationEndpoint,
    tokenEndpoint: changes.tokenEndpoint,
    userInfoEndpoint: changes.userInfoEndpoint,
    jwksUri: changes.jwksUri,
    microsoftTenant: changes.microsoftTenant,
    scopesJson: jsonList(changes.scopes),
    claimMappingJson:
      claimMapping === undefined ? undefined : claimMapping === null ? null : JSON.stringify(claimMapping),
    clientAuthMethod: changes.clientAuthMethod,
    useUserInfo: useUserInfo === undefined ? undefined : useUserInfo === null ? null : flag(useUserInfo),
    appleTeamId: changes.appleTeamId,
    appleKeyId: changes.appleKeyId,
    applePrivateKeySealed: changes.applePrivateKeySealed,
    logoDataUrl: changes.logoDataUrl,
    organizationId: changes.organizationId,
    enabled: flag(changes.enabled),
  };
}

/** OIDC connections in `oidc_connections`; secrets arrive and leave sealed, never in clear. */
export function oidcConnectionRepository(db: Db): OidcConnectionRepository {
  return {
    async insert(record) {
      const { id, owner, createdAt, updatedAt, ...fields } = record;
      await db
        .insertInto('oidcConnections')
        .values({ ...columns(fields), id, owner, createdAt, updatedAt })
        .execute();
    },

    async findById(id) {
      const row = await db.selectFrom('oidcConnections').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    list(page) {
      return fetchNewestFirst(
        db.selectFrom('oidcConnections').selectAll(),
        'createdAt',
        page,
        (row) => row.createdAt,
        toRecord,
      );
    },

    async listEnabled() {
      const rows = await db
        .selectFrom('oidcConnections')
        .selectAll()
        .where('enabled', '=', 1)
        .orderBy('createdAt')
        .orderBy('id')
        .execute();
      return rows.map(toRecord);
    },

    async update(id, changes, now) {
      const row = await db
        .updateTable('oidcConnections')
        .set({ ...columns(changes), updatedAt: now })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    async delete(id) {
      const row = await db
        .deleteFrom('oidcConnections')
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },
  };
}

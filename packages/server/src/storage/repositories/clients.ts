import type { Selectable } from 'kysely';
import {
  APPLICATION_ACCESS_MODES,
  type ApplicationAccessMode,
  type TokenEndpointAuthMethod,
} from '@svc/contract';
import type {
  ClientRecord,
  ClientRegistrationMetadata,
  ClientRepository,
} from '../../directory/repository.js';
import { isUniqueViolation, type Db } from '../database.js';
import { allColumns, fixedQuery } from '../fixed-query.js';
import { fetchNewestFirst } from '../paging.js';
import type { ClientsTable } from '../schema.js';
import { flag, jsonList } from './partial-updates.js';
import { parseStringList } from './json-columns.js';
import { nameKeyOrId } from './search.js';

const AUTH_METHODS: readonly string[] = ['none', 'client_secret_basic', 'client_secret_post'];

function toRecord(row: Selectable<ClientsTable>): ClientRecord {
  return {
    id: row.id,
    clientId: row.clientId,
    name: row.name,
    audience: row.audience,
    redirectUris: parseStringList(row.redirectUrisJson),
    postLogoutRedirectUris: parseStringList(row.postLogoutRedirectUrisJson),
    isFirstParty: row.isFirstParty === 1,
    allowedScopes: parseStringList(row.allowedScopesJson),
    allowedResources: parseStringList(row.allowedResourcesJson),
    // A value written by a newer version reads as the strictest known method rather than as 'none'.
    tokenEndpointAuthMethod: (AUTH_METHODS.includes(row.tokenEndpointAuthMethod)
      ? row.tokenEndpointAuthMethod
      : 'client_secret_basic') as TokenEndpointAuthMethod,
    clientSecretHash: row.clientSecretHash,
    allowDeviceAuthorization: row.allowDeviceAuthorization === 1,
    allowClientCredentials: row.allowClientCredentials === 1,
    active: row.active === 1,
    access: {
      // A mode written by a newer version reads as the strictest: nobody gets in on an unknown rule.
      mode: (APPLICATION_ACCESS_MODES as readonly string[]).includes(row.accessMode)
        ? (row.accessMode as ApplicationAccessMode)
        : 'disabled',
      assignments: row.accessAssignments,
    },
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    registration:
      row.registrationJson === null ? null : parseRegistration(row.registrationJson, row.firstUsedAt),
  };
}

/** A stored registration; a field missing or of another type (a newer writer's) reads as not given. */
function parseRegistration(json: string, firstUsedAt: number | null): ClientRegistrationMetadata {
  const stored = JSON.parse(json) as Record<string, unknown>;
  const field = (name: string) => (typeof stored[name] === 'string' ? stored[name] : null);
  const { fetchedAt, freshUntil } = stored;
  const fromDocument =
    stored.method === 'metadata_document' && typeof fetchedAt === 'number' && typeof freshUntil === 'number';
  return {
    // Registrations stored before 0034 have no method: they are dynamic.
    method: fromDocument ? 'metadata_document' : 'dynamic',
    clientUri: field('clientUri'),
    logoUri: field('logoUri'),
    softwareId: field('softwareId'),
    softwareVersion: field('softwareVersion'),
    document: fromDocument ? { fetchedAt, freshUntil } : null,
    firstUsedAt,
  };
}

/** The stored JSON of a registration: its fields, a document's times at the top level. */
function registrationJson(registration: ClientRegistrationMetadata | null): string | null {
  if (registration === null) return null;
  // The first use has its own column (markFirstUse), so that rewriting the registration keeps it.
  const { document, firstUsedAt: _stored, ...fields } = registration;
  return JSON.stringify({ ...fields, ...document });
}

/** Every token request reads its client: compiled once (storage/fixed-query.ts). */
const CLIENT_COLUMNS = allColumns<ClientsTable>({
  id: true,
  clientId: true,
  name: true,
  audience: true,
  redirectUrisJson: true,
  postLogoutRedirectUrisJson: true,
  isFirstParty: true,
  allowedScopesJson: true,
  allowedResourcesJson: true,
  tokenEndpointAuthMethod: true,
  clientSecretHash: true,
  allowDeviceAuthorization: true,
  allowClientCredentials: true,
  active: true,
  createdAt: true,
  updatedAt: true,
  registrationJson: true,
  registrationMethod: true,
  firstUsedAt: true,
  accessMode: true,
  accessAssignments: true,
});
/**
 * The tables whose rows name a client in use: token sessions, authorization and device requests, and
 * an operator's access assignments (a client an operator took care of is not "unused").
 */
const NAMING_TABLES = [
  'sessions',
  'authRequests',
  'deviceAuthorizations',
  'applicationAccessAssignments',
] as const;

const selectByClientId = fixedQuery((db, p: { clientId: string }) =>
  db.selectFrom('clients').select(CLIENT_COLUMNS).where('clientId', '=', p.clientId),
);

/** OAuth clients in the `clients` table; lists are JSON text, the secret only as its SHA-256 hash. */
export function clientRepository(db: Db): ClientRepository {
  return {
    async insertIfClientIdFree(client) {
      try {
        await db
          .insertInto('clients')
          .values({
            id: client.id,
            clientId: client.clientId,
            name: client.name,
            audience: client.audience,
            redirectUrisJson: JSON.stringify(client.redirectUris),
            postLogoutRedirectUrisJson: JSON.stringify(client.postLogoutRedirectUris),
            isFirstParty: client.isFirstParty ? 1 : 0,
            allowedScopesJson: JSON.stringify(client.allowedScopes),
            allowedResourcesJson: JSON.stringify(client.allowedResources),
            tokenEndpointAuthMethod: client.tokenEndpointAuthMethod,
            clientSecretHash: client.clientSecretHash,
            allowDeviceAuthorization: client.allowDeviceAuthorization ? 1 : 0,
            allowClientCredentials: client.allowClientCredentials ? 1 : 0,
            active: client.active ? 1 : 0,
            accessMode: client.access.mode,
            createdAt: client.createdAt,
            updatedAt: client.updatedAt,
            registrationJson: registrationJson(client.registration),
            registrationMethod: client.registration?.method ?? null,
            firstUsedAt: client.registration?.firstUsedAt ?? null,
          })
          .execute();
        return true;
      } catch (error) {
        // The id is random, so the only unique key that can collide is the clientId.
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    async findBySecretHash(secretHash) {
      const row = await db
        .selectFrom('clients')
        .select(CLIENT_COLUMNS)
        .where('clientSecretHash', '=', secretHash)
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    async findById(id) {
      const row = await db.selectFrom('clients').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    async findByClientId(clientId) {
      const row = (await selectByClientId(db, { clientId })).rows[0];
      return row === undefined ? undefined : toRecord(row);
    },

    async update(clientId, changes, now) {
      const row = await db
        .updateTable('clients')
        .set({
          name: changes.name,
          audience: changes.audience,
          redirectUrisJson: jsonList(changes.redirectUris),
          postLogoutRedirectUrisJson: jsonList(changes.postLogoutRedirectUris),
          isFirstParty: flag(changes.isFirstParty),
          allowedScopesJson: jsonList(changes.allowedScopes),
          allowedResourcesJson: jsonList(changes.allowedResources),
          tokenEndpointAuthMethod: changes.tokenEndpointAuthMethod,
          clientSecretHash: changes.clientSecretHash,
          allowDeviceAuthorization: flag(changes.allowDeviceAuthorization),
          allowClientCredentials: flag(changes.allowClientCredentials),
          active: flag(changes.active),
          ...(changes.registration === undefined
            ? {}
            : {
                registrationJson: registrationJson(changes.registration),
                registrationMethod: changes.registration?.method ?? null,
              }),
          updatedAt: now,
        })
        .where('clientId', '=', clientId)
        .returningAll()
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    async markFirstUse(clientId, now) {
      await db
        .updateTable('clients')
        .set({ firstUsedAt: now })
        .where('clientId', '=', clientId)
        .where('registrationJson', 'is not', null)
        .where('firstUsedAt', 'is', null)
        .execute();
    },

    async deleteUnused(before) {
      const rows = await db
        .deleteFrom('clients')
        .where('registrationJson', 'is not', null)
        .where('firstUsedAt', 'is', null)
        .where('active', '=', 1)
        .where('isFirstParty', '=', 0)
        .where('updatedAt', '<', before)
        // No token session, nor a sign-in under way (a request housekeeping has not deleted yet).
        .where(({ and, not, exists, selectFrom }) =>
          and(
            NAMING_TABLES.map((table) =>
              not(exists(selectFrom(table).select('clientId').whereRef('clientId', '=', 'clients.clientId'))),
            ),
          ),
        )
        .returning('clientId')
        .execute();
      return rows.map((row) => row.clientId);
    },

    list(page) {
      let all = db.selectFrom('clients').selectAll();
      const { search, active } = page;
      if (search !== undefined) all = all.where(nameKeyOrId(db, 'clientId', search));
      if (active !== undefined) all = all.where('active', '=', active ? 1 : 0);
      return fetchNewestFirst(
        page.registration === undefined
          ? all
          : page.registration === 'operator'
            ? all.where('registrationJson', 'is', null)
            : page.registration === 'dynamic'
              ? // A registration a node of the previous release stored has no method: it is dynamic.
                all
                  .where('registrationJson', 'is not', null)
                  .where((eb) =>
                    eb.or([eb('registrationMethod', 'is', null), eb('registrationMethod', '=', 'dynamic')]),
                  )
              : all.where('registrationMethod', '=', page.registration),
        'createdAt',
        page,
        (row) => row.createdAt,
        toRecord,
      );
    },
  };
}

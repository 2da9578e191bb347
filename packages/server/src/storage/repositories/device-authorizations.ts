import type { Selectable } from 'kysely';
import type {
  DeviceAuthorizationRecord,
  DeviceAuthorizationStatus,
  DeviceAuthorizationStore,
} from '../../oauth/device/repository.js';
import { isUniqueViolation, type Db } from '../database.js';
import { updatedRows } from '../fixed-query.js';
import type { DeviceAuthorizationsTable } from '../schema.js';
import { parseStringList } from './json-columns.js';
import { tokenStore } from './token-store.js';

function toRecord(row: Selectable<DeviceAuthorizationsTable>): DeviceAuthorizationRecord {
  return {
    deviceCodeHash: row.deviceCodeHash,
    userCodeHash: row.userCodeHash,
    clientId: row.clientId,
    scopes: parseStringList(row.scopeJson),
    resource: row.resource,
    status: row.status as DeviceAuthorizationStatus,
    intervalSeconds: row.intervalSeconds,
    lastPolledAt: row.lastPolledAt,
    userId: row.userId,
    organizationId: row.organizationId,
    amr: row.amrJson === null ? null : parseStringList(row.amrJson),
    authTime: row.authTime,
    decidedAt: row.decidedAt,
    consumedAt: row.consumedAt,
    sessionId: row.sessionId,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
  };
}

/**
 * Device authorization requests over `db`, which may be a transaction. Every state change is one
 * conditional UPDATE checked by its affected rows (`… AND status = 'pending' AND expires_at > now`), exact
 * on both databases under concurrency; the polling gate is a compare-and-set on `last_polled_at`.
 */
export function deviceAuthorizationRepository(db: Db): DeviceAuthorizationStore {
  return {
    transaction: (work) =>
      db
        .transaction()
        .execute((tx) => work({ devices: deviceAuthorizationRepository(tx), tokens: tokenStore(tx) })),

    async insert(record) {
      try {
        await db
          .insertInto('deviceAuthorizations')
          .values({
            deviceCodeHash: record.deviceCodeHash,
            userCodeHash: record.userCodeHash,
            clientId: record.clientId,
            scopeJson: JSON.stringify(record.scopes),
            resource: record.resource,
            status: record.status,
            intervalSeconds: record.intervalSeconds,
            lastPolledAt: record.lastPolledAt,
            userId: record.userId,
            organizationId: record.organizationId,
            amrJson: record.amr === null ? null : JSON.stringify(record.amr),
            authTime: record.authTime,
            decidedAt: record.decidedAt,
            consumedAt: record.consumedAt,
            sessionId: record.sessionId,
            createdAt: record.createdAt,
            expiresAt: record.expiresAt,
          })
          .execute();
        return true;
      } catch (error) {
        // The device code has 256 random bits; the only key that can clash is the user code's.
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    async findByDeviceCode(deviceCodeHash) {
      const row = await db
        .selectFrom('deviceAuthorizations')
        .selectAll()
        .where('deviceCodeHash', '=', deviceCodeHash)
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    async findByUserCode(userCodeHash) {
      const row = await db
        .selectFrom('deviceAuthorizations')
        .selectAll()
        .where('userCodeHash', '=', userCodeHash)
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    async decide(userCodeHash, decision, now) {
      const values =
        decision.status === 'approved'
          ? {
              status: 'approved',
              userId: decision.approval.userId,
              organizationId: decision.approval.organizationId,
              amrJson: JSON.stringify(decision.approval.amr),
              authTime: decision.approval.authTime,
              decidedAt: now,
            }
          : { status: 'denied', userId: decision.userId, decidedAt: now };
      const result = await db
        .updateTable('deviceAuthorizations')
        .set(values)
        .where('userCodeHash', '=', userCodeHash)
        .where('status', '=', 'pending')
        .where('expiresAt', '>', now)
        .executeTakeFirst();
      return updatedRows(result) === 1;
    },

    async recordPoll(deviceCodeHash, previous, now) {
      const result = await db
        .updateTable('deviceAuthorizations')
        .set({ lastPolledAt: now })
        .where('deviceCodeHash', '=', deviceCodeHash)
        .where('status', '=', 'pending')
        .where('lastPolledAt', previous === null ? 'is' : '=', previous)
        .executeTakeFirst();
      return updatedRows(result) === 1;
    },

    async slowDown(deviceCodeHash, now, incrementSeconds) {
      const row = await db
        .updateTable('deviceAuthorizations')
        .set((eb) => ({
          intervalSeconds: eb('intervalSeconds', '+', incrementSeconds),
          lastPolledAt: now,
        }))
        .where('deviceCodeHash', '=', deviceCodeHash)
        .where('status', '=', 'pending')
        .returning('intervalSeconds')
        .executeTakeFirst();
      return row?.intervalSeconds;
    },

    async consumeApproved(deviceCodeHash, now) {
      const result = await db
        .updateTable('deviceAuthorizations')
        .set({ status: 'consumed', consumedAt: now })
        .where('deviceCodeHash', '=', deviceCodeHash)
        .where('status', '=', 'approved')
        .where('expiresAt', '>', now)
        .executeTakeFirst();
      return updatedRows(result) === 1;
    },

    async setSession(deviceCodeHash, sessionId) {
      await db
        .updateTable('deviceAuthorizations')
        .set({ sessionId })
        .where('deviceCodeHash', '=', deviceCodeHash)
        .execute();
    },
  };
}

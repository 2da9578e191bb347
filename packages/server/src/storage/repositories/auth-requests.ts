import type { Selectable, Updateable } from 'kysely';
import {
  TERMINAL_AUTH_REQUEST_STATUSES,
  type AuthRequestChallenge,
  type AuthRequestRecord,
  type AuthRequestStatus,
  type AuthRequestStore,
} from '../../signin/flow/repository.js';
import type { Db } from '../database.js';
import { updatedRows } from '../fixed-query.js';
import type { AuthRequestsTable } from '../schema.js';
import { parseStringList } from './json-columns.js';

function toRecord(row: Selectable<AuthRequestsTable>): AuthRequestRecord {
  return {
    id: row.id,
    clientId: row.clientId,
    redirectUri: row.redirectUri,
    state: row.state,
    requestedScopes: parseStringList(row.requestedScopesJson),
    grantedScopes: parseStringList(row.grantedScopesJson),
    codeChallenge: row.codeChallenge,
    codeChallengeMethod: row.codeChallengeMethod,
    resource: row.resource,
    nonce: row.nonce,
    prompt: parseStringList(row.promptJson),
    maxAge: row.maxAge,
    loginHint: row.loginHint,
    view: row.requestedView,
    uiContext: row.uiContext,
    browserBinding: row.browserBinding,
    status: row.status as AuthRequestStatus,
    email: row.email,
    userId: row.userId,
    organizationId: row.organizationId,
    amr: row.amrJson === null ? null : parseStringList(row.amrJson),
    authTime: row.authTime,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    expiresAt: row.expiresAt,
    completedAt: row.completedAt,
    challenge: row.challengeJson === null ? null : (JSON.parse(row.challengeJson) as AuthRequestChallenge),
    sealedDeviceUserCode: row.sealedDeviceUserCode,
    invitationId: row.invitationId,
    sessionless: row.sessionless === 1,
  };
}

/** Authorization requests in `auth_requests`; transitions are conditional updates on the status. */
export function authRequestRepository(db: Db): AuthRequestStore {
  return {
    async insert(record) {
      await db
        .insertInto('authRequests')
        .values({
          id: record.id,
          clientId: record.clientId,
          redirectUri: record.redirectUri,
          state: record.state,
          requestedScopesJson: JSON.stringify(record.requestedScopes),
          grantedScopesJson: JSON.stringify(record.grantedScopes),
          codeChallenge: record.codeChallenge,
          codeChallengeMethod: record.codeChallengeMethod,
          resource: record.resource,
          nonce: record.nonce,
          promptJson: JSON.stringify(record.prompt),
          maxAge: record.maxAge,
          loginHint: record.loginHint,
          requestedView: record.view,
          uiContext: record.uiContext,
          browserBinding: record.browserBinding,
          status: record.status,
          email: record.email,
          userId: record.userId,
          organizationId: record.organizationId,
          amrJson: record.amr === null ? null : JSON.stringify(record.amr),
          authTime: record.authTime,
          createdAt: record.createdAt,
          updatedAt: record.updatedAt,
          expiresAt: record.expiresAt,
          completedAt: record.completedAt,
          challengeJson: record.challenge === null ? null : JSON.stringify(record.challenge),
          sealedDeviceUserCode: record.sealedDeviceUserCode,
          invitationId: record.invitationId,
          sessionless: record.sessionless ? 1 : null,
        })
        .execute();
    },

    async find(id) {
      const row = await db.selectFrom('authRequests').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    async transition(id, from, change, now) {
      const values: Updateable<AuthRequestsTable> = { status: change.status, updatedAt: now };
      if (change.email !== undefined) values.email = change.email;
      if (change.userId !== undefined) values.userId = change.userId;
      if (change.organizationId !== undefined) values.organizationId = change.organizationId;
      if (change.amr !== undefined) values.amrJson = change.amr === null ? null : JSON.stringify(change.amr);
      if (change.authTime !== undefined) values.authTime = change.authTime;
      if (change.challenge !== undefined) {
        values.challengeJson = change.challenge === null ? null : JSON.stringify(change.challenge);
      }
      if (TERMINAL_AUTH_REQUEST_STATUSES.has(change.status)) values.completedAt = now;
      // Works alike on both databases; PostgreSQL reports the count as a bigint.
      const result = await db
        .updateTable('authRequests')
        .set(values)
        .where('id', '=', id)
        .where('status', '=', from)
        .where('expiresAt', '>', now)
        .executeTakeFirst();
      return updatedRows(result) === 1;
    },

    async deleteExpired(before) {
      const result = await db.deleteFrom('authRequests').where('expiresAt', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

import type {
  SamlAuthnRequestRepository,
  SamlUsedAssertionRepository,
} from '../../federation/saml/authn-request-repository.js';
import type { Db } from '../database.js';
import { singleUseRows } from '../single-use.js';

/** AuthnRequests in flight in `saml_authn_requests`, each taken once (storage/single-use.ts). */
export function samlAuthnRequestRepository(db: Db): SamlAuthnRequestRepository {
  const rows = singleUseRows(db, 'samlAuthnRequests', 'tokenHash');
  return {
    async insert(record) {
      const { requestIdHash, ...rest } = record;
      await db
        .insertInto('samlAuthnRequests')
        .values({ tokenHash: requestIdHash, ...rest, consumedAt: null })
        .execute();
    },
    async consume(requestIdHash, now) {
      const row = await rows.consume(requestIdHash, now);
      if (row === undefined) return undefined;
      return {
        requestIdHash: row.tokenHash,
        connectionId: row.connectionId,
        relayStateHash: row.relayStateHash,
        continuationJson: row.continuationJson,
        createdAt: row.createdAt,
        expiresAt: row.expiresAt,
      };
    },
  };
}

/** Used assertion ids in `saml_used_assertions`; the primary key (connection, id) decides a replay. */
export function samlUsedAssertionRepository(db: Db): SamlUsedAssertionRepository {
  return {
    async remember(entry) {
      // ON CONFLICT DO NOTHING … RETURNING: of two concurrent posts of one assertion, exactly one gets a
      // row back, on SQLite and on PostgreSQL alike.
      const row = await db
        .insertInto('samlUsedAssertions')
        .values(entry)
        .onConflict((conflict) => conflict.columns(['connectionId', 'assertionIdHash']).doNothing())
        .returning('connectionId')
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}

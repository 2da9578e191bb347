import type { Selectable, Updateable } from 'kysely';
import type { SvcDomainCheckResult, SvcDomainClaimStatus } from '@svc/contract';
import type {
  DomainClaimChanges,
  DomainClaimRecord,
  DomainClaimRepository,
} from '../../organizations/domains/repository.js';
import { isUniqueViolation, type Db } from '../database.js';
import { fetchNewestFirst } from '../paging.js';
import type { OrganizationDomainsTable } from '../schema.js';

function toRecord(row: Selectable<OrganizationDomainsTable>): DomainClaimRecord {
  return {
    id: row.id,
    organizationId: row.organizationId,
    domain: row.domain,
    status: row.status as SvcDomainClaimStatus,
    verificationValue: row.verificationValue,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    verifiedAt: row.verifiedAt,
    revokedAt: row.revokedAt,
    lastCheck:
      row.lastCheckedAt === null
        ? null
        : {
            checkedAt: row.lastCheckedAt,
            result: row.lastCheckResult as SvcDomainCheckResult,
            message: row.lastCheckMessage ?? '',
          },
    failedRechecks: row.failedRechecks,
    nextCheckAt: row.nextCheckAt,
  };
}

/** The columns of `changes`; the last check's three columns are set together. */
function toColumns(changes: DomainClaimChanges): Updateable<OrganizationDomainsTable> {
  const { lastCheck, ...rest } = changes;
  if (lastCheck === undefined) return rest;
  return {
    ...rest,
    lastCheckedAt: lastCheck?.checkedAt ?? null,
    lastCheckResult: lastCheck?.result ?? null,
    lastCheckMessage: lastCheck?.message ?? null,
  };
}

export function organizationDomainRepository(db: Db): DomainClaimRepository {
  return {
    async insert(record) {
      const { lastCheck: _none, ...columns } = record;
      try {
        await db
          .insertInto('organizationDomains')
          .values({ ...columns, lastCheckedAt: null, lastCheckResult: null, lastCheckMessage: null })
          .execute();
        return true;
      } catch (error) {
        // The id is random: the key that collides is (organization, domain).
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    async findById(organizationId, id) {
      const row = await db
        .selectFrom('organizationDomains')
        .selectAll()
        .where('id', '=', id)
        .where('organizationId', '=', organizationId)
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    async findByDomain(organizationId, domain) {
      const row = await db
        .selectFrom('organizationDomains')
        .selectAll()
        .where('organizationId', '=', organizationId)
        .where('domain', '=', domain)
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    async findActive(domain) {
      const row = await db
        .selectFrom('organizationDomains')
        .selectAll()
        .where('domain', '=', domain)
        .where('status', '=', 'active')
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    listByOrganization(organizationId, page) {
      return fetchNewestFirst(
        db.selectFrom('organizationDomains').selectAll().where('organizationId', '=', organizationId),
        'createdAt',
        page,
        (row) => row.createdAt,
        toRecord,
      );
    },

    async update(id, expected, changes) {
      try {
        const row = await db
          .updateTable('organizationDomains')
          .set(toColumns(changes))
          .where('id', '=', id)
          .where('status', '=', expected)
          .returningAll()
          .executeTakeFirst();
        return row === undefined ? { kind: 'stale' } : { kind: 'updated', claim: toRecord(row) };
      } catch (error) {
        // Only the one-active-claim-per-domain index can collide: ids and (organization, domain) never change.
        if (isUniqueViolation(error)) return { kind: 'domain_taken' };
        throw error;
      }
    },

    async takeDue(now, limit, nextCheckAt) {
      const due = await db
        .selectFrom('organizationDomains')
        .select(['id', 'nextCheckAt'])
        .where('status', '=', 'active')
        .where('nextCheckAt', '<=', now)
        .orderBy('nextCheckAt')
        .limit(limit)
        .execute();
      const taken: DomainClaimRecord[] = [];
      for (const { id, nextCheckAt: was } of due) {
        if (was === null) continue;
        // Compare-and-set on the due time: of several nodes running housekeeping, one takes the claim.
        const row = await db
          .updateTable('organizationDomains')
          .set({ nextCheckAt })
          .where('id', '=', id)
          .where('status', '=', 'active')
          .where('nextCheckAt', '=', was)
          .returningAll()
          .executeTakeFirst();
        if (row !== undefined) taken.push(toRecord(row));
      }
      return taken;
    },
  };
}

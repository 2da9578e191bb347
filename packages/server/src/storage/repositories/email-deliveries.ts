import type { EmailDeliveryStatus } from '@svc/contract';
import type { EmailDeliveryRecord, EmailDeliveryRepository } from '../../email/repository.js';
import type { Db } from '../database.js';
import { fetchNewestFirst } from '../paging.js';
import type { EmailDeliveriesTable } from '../schema.js';

const STATUSES: ReadonlySet<string> = new Set<EmailDeliveryStatus>(['queued', 'sent', 'failed', 'outbox']);

/** The email delivery log in `email_deliveries`. */
export function emailDeliveriesRepository(db: Db): EmailDeliveryRepository {
  return {
    async insert(record) {
      await db
        .insertInto('emailDeliveries')
        .values({
          id: record.id,
          templateKey: record.templateKey,
          toAddress: record.to,
          subject: record.subject,
          status: record.status,
          providerMessageId: record.providerMessageId,
          failureDetail: record.failureDetail,
          textBody: record.textBody,
          htmlBody: record.htmlBody,
          createdAt: record.createdAt,
          sentAt: record.sentAt,
        })
        .execute();
    },
    async complete(id, outcome) {
      await db
        .updateTable('emailDeliveries')
        .set({
          status: outcome.status,
          providerMessageId: outcome.providerMessageId,
          failureDetail: outcome.failureDetail,
          sentAt: outcome.sentAt,
        })
        .where('id', '=', id)
        .execute();
    },
    async find(id) {
      const row = await db.selectFrom('emailDeliveries').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },
    list(filter, page) {
      let query = db.selectFrom('emailDeliveries').selectAll();
      if (filter.status !== undefined) query = query.where('status', '=', filter.status);
      if (filter.templateKey !== undefined) query = query.where('templateKey', '=', filter.templateKey);
      return fetchNewestFirst(query, 'createdAt', page, (row) => Number(row.createdAt), toRecord);
    },
  };
}

function toRecord(row: EmailDeliveriesTable): EmailDeliveryRecord {
  return {
    id: row.id,
    templateKey: row.templateKey,
    to: row.toAddress,
    subject: row.subject,
    // A row written by hand with another status reads as failed rather than breaking the list.
    status: STATUSES.has(row.status) ? (row.status as EmailDeliveryStatus) : 'failed',
    providerMessageId: row.providerMessageId,
    failureDetail: row.failureDetail,
    textBody: row.textBody,
    htmlBody: row.htmlBody,
    createdAt: Number(row.createdAt),
    sentAt: row.sentAt === null ? null : Number(row.sentAt),
  };
}

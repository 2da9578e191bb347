import type { Kysely } from 'kysely';

/**
 * Email: operator overrides of the built-in templates (the built-ins live in code, email/templates.ts)
 * and the delivery log. Portable as 0001: epoch-ms `bigint` times. A delivery row keeps a rendered body
 * only for the development outbox (see email/email-service.ts); SMTP deliveries keep no body, because
 * bodies carry codes and links that are secrets (docs/reference/email-and-sms.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('email_templates')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('email_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('template_key', 'text', (c) => c.notNull())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('provider_message_id', 'text')
    .addColumn('failure_detail', 'text')
    .addColumn('text_body', 'text')
    .addColumn('html_body', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .execute();
  // The admin list reads newest first, optionally by status or template.
  await db.schema
    .createIndex('email_deliveries_created_idx')
    .on('email_deliveries')
    .columns(['created_at', 'id'])
    .execute();
}

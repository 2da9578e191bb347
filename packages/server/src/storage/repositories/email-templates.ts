import type { EmailTemplateOverride, EmailTemplateRepository } from '../../email/repository.js';
import type { Db } from '../database.js';
import type { EmailTemplatesTable } from '../schema.js';

/** Operator overrides of built-in email templates in `email_templates`. */
export function emailTemplatesRepository(db: Db): EmailTemplateRepository {
  return {
    async find(key) {
      const row = await db.selectFrom('emailTemplates').selectAll().where('key', '=', key).executeTakeFirst();
      return row === undefined ? undefined : toOverride(row);
    },
    async list() {
      const rows = await db.selectFrom('emailTemplates').selectAll().orderBy('key').execute();
      return rows.map(toOverride);
    },
    async save(override) {
      const values = {
        subject: override.subject,
        textBody: override.textBody,
        htmlBody: override.htmlBody,
        updatedAt: override.updatedAt,
      };
      // Portable upsert: both SQLite and PostgreSQL accept ON CONFLICT … DO UPDATE.
      await db
        .insertInto('emailTemplates')
        .values({ key: override.key, ...values })
        .onConflict((oc) => oc.column('key').doUpdateSet(values))
        .execute();
    },
    async remove(key) {
      const result = await db.deleteFrom('emailTemplates').where('key', '=', key).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

function toOverride(row: EmailTemplatesTable): EmailTemplateOverride {
  return {
    key: row.key,
    subject: row.subject,
    textBody: row.textBody,
    htmlBody: row.htmlBody,
    updatedAt: Number(row.updatedAt),
  };
}

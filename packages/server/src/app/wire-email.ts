import type { AuditLog } from '../audit/audit-log.js';
import type { SvcConfig } from '../config/resolve.js';
import { EmailService, type EmailLogger } from '../email/email-service.js';
import { smtpTransport, smtpUrlSecrets } from '../email/smtp-transport.js';
import type { Clock } from '../kernel/clock.js';
import type { Ids } from '../kernel/ids.js';
import type { Db } from '../storage/database.js';
import { emailDeliveriesRepository } from '../storage/repositories/email-deliveries.js';
import { emailTemplatesRepository } from '../storage/repositories/email-templates.js';

export interface WireEmailContext {
  readonly db: Db;
  readonly config: Pick<SvcConfig, 'smtpUrl' | 'emailFrom' | 'development'>;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly audit: AuditLog;
  /** Gets one-line notices (outbox stores, failures); never a body or a credential. */
  readonly logger?: EmailLogger & { warn(message: string): void };
}

/**
 * Builds the EmailService: SMTP through nodemailer when SVC_SMTP_URL is set, the outbox otherwise. A
 * production service without SMTP still starts (an operator may configure mail later and other sign-in
 * methods work meanwhile) but warns once, and its outbox rows keep no body.
 */
export function wireEmail(ctx: WireEmailContext): { email: EmailService; close(): void } {
  const url = ctx.config.smtpUrl;
  const transport = url === undefined ? undefined : smtpTransport(url);
  if (url === undefined && !ctx.config.development) {
    ctx.logger?.warn(
      'SVC_SMTP_URL is not set: emails (codes, links, invitations) are not delivered; set it in production.',
    );
  }
  const email = new EmailService({
    templates: emailTemplatesRepository(ctx.db),
    deliveries: emailDeliveriesRepository(ctx.db),
    transport,
    clock: ctx.clock,
    ids: ctx.ids,
    audit: ctx.audit,
    from: ctx.config.emailFrom,
    development: ctx.config.development,
    secrets: url === undefined ? [] : smtpUrlSecrets(url),
    ...(ctx.logger === undefined ? {} : { logger: ctx.logger }),
  });
  return { email, close: () => transport?.close?.() };
}

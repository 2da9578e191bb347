import { emailDeliveryQuerySchema } from '@svc/contract';
import type { EmailService } from '../email/email-service.js';
import type { EmailDeliveryRecord } from '../email/repository.js';

/**
 * The captured outbox of a development service (SVC_SMTP_URL unset): the messages sent to `to`, newest
 * first, with their rendered text and HTML. Flows read codes and links from here without SMTP.
 */
export async function readOutbox(
  email: EmailService,
  filter: { to?: string; templateKey?: string } = {},
): Promise<EmailDeliveryRecord[]> {
  const page = await email.listDeliveries(
    emailDeliveryQuerySchema.parse({ status: 'outbox', templateKey: filter.templateKey, limit: 200 }),
  );
  return page.data.filter((record) => filter.to === undefined || record.to === filter.to);
}

/** The first http(s) link of a text body; throws when there is none (the test is then wrong). */
export function linkIn(text: string | null): string {
  const link = /https?:\/\/\S+/.exec(text ?? '')?.[0];
  if (link === undefined) throw new Error(`No link in: ${text ?? '(no body)'}`);
  return link;
}

/** The first six-digit code of a text body; throws when there is none. */
export function codeIn(text: string | null): string {
  const code = /\b\d{6}\b/.exec(text ?? '')?.[0];
  if (code === undefined) throw new Error(`No code in: ${text ?? '(no body)'}`);
  return code;
}

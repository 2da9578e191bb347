import { z } from 'zod';
import { pageQuerySchema } from './paging.js';

/** A template key: lower-case dotted segments such as `auth.password-reset`. */
export const EMAIL_TEMPLATE_KEY_PATTERN = /^[a-z][a-z0-9-]*(?:\.[a-z0-9-]+)*$/;

/**
 * The `{key}` of `/templates/{key}`: any string, because a key that names no template (malformed or not)
 * is the template's 404 (the server knows its keys).
 */
export const emailTemplatePathSchema = z.object({ key: z.string() });

/** Where a delivery stands: `outbox` = stored instead of sent because SMTP is not configured. */
export const emailDeliveryStatusSchema = z.enum(['queued', 'sent', 'failed', 'outbox']);
export type EmailDeliveryStatus = z.output<typeof emailDeliveryStatusSchema>;

/** `PUT /svc/admin/email/api/templates/{key}`: replaces subject, text and HTML of a built-in template. */
export const emailTemplateOverrideSchema = z.object({
  subject: z.string().trim().min(1).max(500),
  textBody: z.string().min(1).max(100_000),
  htmlBody: z.string().min(1).max(200_000),
});
export type EmailTemplateOverrideInput = z.input<typeof emailTemplateOverrideSchema>;

/** Sample values of a template's variables, by name (preview and test send). */
const templateDataSchema = z.record(z.string().max(100), z.string().max(2000));

/**
 * `POST /svc/admin/email/api/templates/{key}/preview`: an unsaved override (the fields of PUT) and
 * optional sample values of the template's variables (`data`); a variable without a sample gets a
 * placeholder value such as `[link]`.
 */
export const emailTemplatePreviewSchema = emailTemplateOverrideSchema.extend({
  data: templateDataSchema.optional(),
});
export type EmailTemplatePreviewInput = z.input<typeof emailTemplatePreviewSchema>;

/** What the preview answers: the message as the server would render it (subject, text part, HTML part). */
export interface EmailTemplatePreview {
  subject: string;
  textBody: string;
  htmlBody: string;
}

/** One template as the admin API shows it: the effective content and whether an override is in force. */
export interface EmailTemplateView {
  key: string;
  description: string;
  variables: string[];
  subject: string;
  textBody: string;
  htmlBody: string;
  overridden: boolean;
  /** ISO time of the override, null for the built-in. */
  updatedAt: string | null;
}

/** Query of `GET /svc/admin/email/api/deliveries`. */
export const emailDeliveryQuerySchema = pageQuerySchema.extend({
  status: emailDeliveryStatusSchema.optional(),
  templateKey: z.string().max(200).regex(EMAIL_TEMPLATE_KEY_PATTERN).optional(),
});
export type EmailDeliveryQuery = z.output<typeof emailDeliveryQuerySchema>;

/** One delivery on the wire. `textBody`/`htmlBody` are present only on development outbox rows. */
export interface EmailDeliveryView {
  id: string;
  templateKey: string;
  to: string;
  subject: string;
  status: EmailDeliveryStatus;
  providerMessageId: string | null;
  failureDetail: string | null;
  textBody: string | null;
  htmlBody: string | null;
  createdAt: string;
  sentAt: string | null;
}

/**
 * `POST /svc/admin/email/api/test` {to, templateKey?, data?}: sends a template (`email.test` unless
 * named) as it reads now, its override included, with the sample values of `data` and the server's
 * samples for the variables left out, as the preview renders them.
 */
export const emailTestSendSchema = z.object({
  to: z.email().max(320),
  templateKey: z
    .string()
    .max(200)
    .regex(EMAIL_TEMPLATE_KEY_PATTERN, { error: 'expected a template key such as auth.password-reset' })
    .optional(),
  data: templateDataSchema.optional(),
});
export type EmailTestSendInput = z.input<typeof emailTestSendSchema>;

/**
 * The email admin API's answers as a client checks them; each is typed by the interface it describes,
 * so a field added there without a check here does not compile.
 */
export const emailTemplateViewSchema: z.ZodType<EmailTemplateView> = z.object({
  key: z.string(),
  description: z.string(),
  variables: z.array(z.string()),
  subject: z.string(),
  textBody: z.string(),
  htmlBody: z.string(),
  overridden: z.boolean(),
  updatedAt: z.iso.datetime().nullable(),
});

/** `GET /svc/admin/email/api/templates`: every built-in template (not paged: there are a handful). */
export const emailTemplateListSchema = z.object({ data: z.array(emailTemplateViewSchema) });

/** `POST /svc/admin/email/api/templates/{key}/preview`'s answer. */
export const emailTemplatePreviewResultSchema: z.ZodType<EmailTemplatePreview> = z.object({
  subject: z.string(),
  textBody: z.string(),
  htmlBody: z.string(),
});

/** One row of `GET /svc/admin/email/api/deliveries`, and the answer of `POST /test`. */
export const emailDeliveryViewSchema: z.ZodType<EmailDeliveryView> = z.object({
  id: z.string(),
  templateKey: z.string(),
  to: z.string(),
  subject: z.string(),
  status: emailDeliveryStatusSchema,
  providerMessageId: z.string().nullable(),
  failureDetail: z.string().nullable(),
  textBody: z.string().nullable(),
  htmlBody: z.string().nullable(),
  createdAt: z.iso.datetime(),
  sentAt: z.iso.datetime().nullable(),
});

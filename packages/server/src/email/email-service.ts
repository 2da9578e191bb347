import type { EmailDeliveryQuery, EmailDeliveryStatus } from '@svc/contract';
import type { Clock } from '../kernel/clock.js';
import { SvcNotFoundError, SvcValidationError } from '../kernel/errors.js';
import type { Ids } from '../kernel/ids.js';
import { placeholdersIn, renderTemplate } from './render.js';
import type {
  EmailDeliveryRecord,
  EmailDeliveryRepository,
  EmailTemplateOverride,
  EmailTemplateRepository,
} from './repository.js';
import { sanitizeFailure } from './sanitize.js';
import {
  BUILT_IN_TEMPLATES,
  SECRET_VARIABLES,
  builtInTemplate,
  type BuiltInEmailTemplate,
  type EmailTemplate,
} from './templates.js';
import type { EmailTransport } from './transport.js';

/** What a caller learns of a send: never the body. */
export interface EmailDelivery {
  readonly id: string;
  readonly status: EmailDeliveryStatus;
  readonly providerMessageId: string | null;
  readonly failureDetail: string | null;
}

/** A template with its effective content. */
export interface ResolvedEmailTemplate extends EmailTemplate {
  readonly key: string;
  readonly description: string;
  readonly variables: readonly string[];
  readonly overridden: boolean;
  readonly updatedAt: number | null;
}

/** A one-line notice sink (the service logger); never given a body. */
export interface EmailLogger {
  info(message: string): void;
}

export interface EmailServiceDeps {
  readonly templates: EmailTemplateRepository;
  readonly deliveries: EmailDeliveryRepository;
  /** Undefined = the outbox (SVC_SMTP_URL unset). */
  readonly transport: EmailTransport | undefined;
  readonly clock: Clock;
  readonly ids: Ids;
  /** The From header, `Svc <no-reply@localhost>` by default (SVC_EMAIL_FROM). */
  readonly from: string;
  /** Value of `{{productName}}` unless the caller passes one. @default 'Svc' */
  readonly productName?: string;
  /** Outbox rows keep the rendered body only in development (see send()). */
  readonly development: boolean;
  /** Strings that must never reach the log or a failure detail (the SMTP password). */
  readonly secrets?: readonly string[];
  readonly logger?: EmailLogger;
}

/**
 * Renders and delivers the service's emails and keeps the delivery log. Delivery failures are values
 * (`status: 'failed'`), so that callers can answer enumeration-safe flows identically whatever happened;
 * an unknown template or a missing variable is a programming error and throws.
 */
export class EmailService {
  constructor(private readonly deps: EmailServiceDeps) {}

  /** Whether messages leave through SMTP (false = the outbox). */
  get delivers(): boolean {
    return this.deps.transport !== undefined;
  }

  async send(input: {
    templateKey: string;
    to: string;
    variables: Readonly<Record<string, string>>;
  }): Promise<EmailDelivery> {
    const template = await this.resolve(input.templateKey);
    const variables = { productName: this.deps.productName ?? 'Svc', ...input.variables };
    const subject = renderTemplate(template.subject, variables, { html: false }).replace(/[\r\n]+/g, ' ');
    const text = renderTemplate(template.textBody, variables, { html: false });
    const html = renderTemplate(template.htmlBody, variables, { html: true });
    const id = this.deps.ids.id('eml');
    const now = this.deps.clock.now();
    const transport = this.deps.transport;
    // The outbox is a development channel: there the developer reads the message (and clicks its link)
    // in the email admin. Elsewhere the body carries codes and links that are secrets at rest
    // (DECISIONS.md), so the log keeps no body and a subject with its secret variables masked.
    const keep = transport === undefined && this.deps.development;
    const loggedSubject = keep ? subject : maskedSubject(template.subject, variables);
    const base = { id, templateKey: template.key, to: input.to, subject: loggedSubject, createdAt: now };
    if (transport === undefined) {
      await this.deps.deliveries.insert({
        ...base,
        status: 'outbox',
        providerMessageId: null,
        failureDetail: null,
        textBody: keep ? text : null,
        htmlBody: keep ? html : null,
        sentAt: null,
      });
      this.deps.logger?.info(
        `email ${id} (${template.key}) to ${input.to} stored in the outbox; SVC_SMTP_URL is not set`,
      );
      return { id, status: 'outbox', providerMessageId: null, failureDetail: null };
    }
    await this.deps.deliveries.insert({
      ...base,
      status: 'queued',
      providerMessageId: null,
      failureDetail: null,
      textBody: null,
      htmlBody: null,
      sentAt: null,
    });
    let outcome: EmailDelivery;
    try {
      const result = await transport.send({ from: this.deps.from, to: input.to, subject, text, html });
      outcome = { id, status: 'sent', providerMessageId: result.messageId, failureDetail: null };
    } catch (error) {
      const detail = sanitizeFailure(error, this.deps.secrets ?? []);
      outcome = { id, status: 'failed', providerMessageId: null, failureDetail: detail };
      this.deps.logger?.info(`email ${id} (${template.key}) failed: ${detail}`);
    }
    await this.deps.deliveries.complete(id, {
      status: outcome.status,
      providerMessageId: outcome.providerMessageId,
      failureDetail: outcome.failureDetail,
      sentAt: outcome.status === 'sent' ? this.deps.clock.now() : null,
    });
    return outcome;
  }

  /** Every built-in template with its effective content. */
  async listTemplates(): Promise<ResolvedEmailTemplate[]> {
    const overrides = new Map((await this.deps.templates.list()).map((o) => [o.key, o]));
    return BUILT_IN_TEMPLATES.map((builtIn) => merge(builtIn, overrides.get(builtIn.key)));
  }

  /** The effective template of a key; an unknown key is a 404. */
  async getTemplate(key: string): Promise<ResolvedEmailTemplate> {
    return this.resolve(key);
  }

  /** Stores an override after checking that it uses only the template's known variables. */
  async saveOverride(key: string, content: EmailTemplate): Promise<ResolvedEmailTemplate> {
    const builtIn = requireBuiltIn(key);
    const known = new Set(builtIn.variables);
    const issues = (['subject', 'textBody', 'htmlBody'] as const).flatMap((field) =>
      placeholdersIn(content[field])
        .filter((name) => !known.has(name))
        .map((name) => ({
          path: field,
          message: `unknown variable {{${name}}}; this template knows ${builtIn.variables.map((v) => `{{${v}}}`).join(', ')}`,
        })),
    );
    if (issues.length > 0) throw new SvcValidationError('The template uses unknown variables.', issues);
    const override: EmailTemplateOverride = { key, ...pick(content), updatedAt: this.deps.clock.now() };
    await this.deps.templates.save(override);
    return merge(builtIn, override);
  }

  /** Drops the override: the built-in applies again. */
  async resetTemplate(key: string): Promise<ResolvedEmailTemplate> {
    const builtIn = requireBuiltIn(key);
    await this.deps.templates.remove(key);
    return merge(builtIn, undefined);
  }

  listDeliveries(
    query: EmailDeliveryQuery,
  ): Promise<{ data: EmailDeliveryRecord[]; nextCursor: string | null }> {
    return this.deps.deliveries.list(
      { status: query.status, templateKey: query.templateKey },
      { limit: query.limit, cursor: query.cursor },
    );
  }

  /** Sends `email.test` and returns the logged row. */
  async sendTest(to: string): Promise<EmailDeliveryRecord> {
    const delivery = await this.send({ templateKey: 'email.test', to, variables: {} });
    const record = await this.deps.deliveries.find(delivery.id);
    if (record === undefined) throw new Error(`Delivery ${delivery.id} vanished.`);
    return record;
  }

  private async resolve(key: string): Promise<ResolvedEmailTemplate> {
    const builtIn = requireBuiltIn(key);
    return merge(builtIn, await this.deps.templates.find(key));
  }
}

function maskedSubject(template: string, variables: Readonly<Record<string, string>>): string {
  const masked = { ...variables };
  for (const name of SECRET_VARIABLES) if (Object.hasOwn(masked, name)) masked[name] = '•••';
  return renderTemplate(template, masked, { html: false }).replace(/[\r\n]+/g, ' ');
}

function requireBuiltIn(key: string): BuiltInEmailTemplate {
  const builtIn = builtInTemplate(key);
  if (builtIn === undefined) throw new SvcNotFoundError(`There is no email template "${key}".`);
  return builtIn;
}

function pick(content: EmailTemplate): EmailTemplate {
  return { subject: content.subject, textBody: content.textBody, htmlBody: content.htmlBody };
}

function merge(
  builtIn: BuiltInEmailTemplate,
  override: EmailTemplateOverride | undefined,
): ResolvedEmailTemplate {
  return {
    key: builtIn.key,
    description: builtIn.description,
    variables: builtIn.variables,
    ...pick(override ?? builtIn),
    overridden: override !== undefined,
    updatedAt: override?.updatedAt ?? null,
  };
}

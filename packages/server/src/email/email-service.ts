import type { EmailDeliveryQuery, EmailDeliveryStatus, EmailTemplatePreview } from '@svc/contract';
import { actorFields, type AdminActor } from '../audit/actor.js';
import type { AuditLog } from '../audit/audit-log.js';
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
  SAMPLE_VALUES,
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
  /** Where the operator's overrides, resets and test sends are recorded. */
  readonly audit: AuditLog;
}

const TEMPLATE_PARTS = ['subject', 'textBody', 'htmlBody'] as const;

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
    const variables = { productName: this.#productName, ...input.variables };
    const { subject, textBody: text, htmlBody: html } = render(template, variables);
    const id = this.deps.ids.id('eml');
    const now = this.deps.clock.now();
    const transport = this.deps.transport;
    // The outbox is a development channel: there the developer reads the message (and clicks its link)
    // in the email admin. Elsewhere the body carries codes and links that are secrets at rest
    // (docs/reference/email-and-sms.md "Email"), so the log keeps no body and a subject with its secret variables masked.
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

  /**
   * Stores an override after checking that it uses only the template's known variables; audited as
   * `admin.email_template.updated` with the parts that differ from the content it replaces.
   */
  async saveOverride(
    key: string,
    content: EmailTemplate,
    actor?: AdminActor,
  ): Promise<ResolvedEmailTemplate> {
    const builtIn = requireKnownVariables(key, content);
    const before = merge(builtIn, await this.deps.templates.find(key));
    const override: EmailTemplateOverride = { key, ...pick(content), updatedAt: this.deps.clock.now() };
    await this.deps.templates.save(override);
    await this.#audit('admin.email_template.updated', key, actor, {
      templateKey: key,
      changed: TEMPLATE_PARTS.filter((part) => before[part] !== content[part]),
      wasOverridden: before.overridden,
    });
    return merge(builtIn, override);
  }

  /** Drops the override: the built-in applies again. Audited as `admin.email_template.reset`. */
  async resetTemplate(key: string, actor?: AdminActor): Promise<ResolvedEmailTemplate> {
    const builtIn = requireBuiltIn(key);
    const removed = await this.deps.templates.remove(key);
    await this.#audit('admin.email_template.reset', key, actor, { templateKey: key, wasOverridden: removed });
    return merge(builtIn, undefined);
  }

  /**
   * Renders unsaved content of a template as send() would, nothing stored or sent: the variables of
   * `data`, and SAMPLE_VALUES for the others. Unknown variables, in the content or in `data`, are a 400.
   */
  previewTemplate(
    key: string,
    content: EmailTemplate,
    data: Readonly<Record<string, string>> = {},
  ): EmailTemplatePreview {
    const builtIn = requireKnownVariables(key, content);
    return render(content, this.#sampleVariables(builtIn, data));
  }

  listDeliveries(
    query: EmailDeliveryQuery,
  ): Promise<{ data: EmailDeliveryRecord[]; nextCursor: string | null }> {
    return this.deps.deliveries.list(
      { status: query.status, templateKey: query.templateKey },
      { limit: query.limit, cursor: query.cursor },
    );
  }

  /**
   * Sends a template (`email.test` unless `templateKey` names another) as it reads now, override
   * included, with the variables of `data` and SAMPLE_VALUES for the others, as the preview renders it;
   * an unknown key is a 404, an unknown variable in `data` a 400. Returns the logged row; audited as
   * `admin.email.test_sent` with the template, the outcome and the recipient's domain only (the log
   * keeps no address: it is never pruned).
   */
  async sendTest(
    input: {
      readonly to: string;
      readonly templateKey?: string | undefined;
      readonly data?: Readonly<Record<string, string>> | undefined;
    },
    actor?: AdminActor,
  ): Promise<EmailDeliveryRecord> {
    const { to, templateKey = 'email.test', data = {} } = input;
    const variables = this.#sampleVariables(requireBuiltIn(templateKey), data);
    const delivery = await this.send({ templateKey, to, variables });
    const record = await this.deps.deliveries.find(delivery.id);
    if (record === undefined) throw new Error(`Delivery ${delivery.id} vanished.`);
    await this.#audit('admin.email.test_sent', delivery.id, actor, {
      deliveryId: delivery.id,
      templateKey,
      status: delivery.status,
      recipientDomain: to.slice(to.lastIndexOf('@') + 1).toLowerCase(),
    });
    return record;
  }

  get #productName(): string {
    return this.deps.productName ?? 'Svc';
  }

  /** Every variable of the template: `data`'s (only its known ones: a 400 otherwise), else a sample. */
  #sampleVariables(
    builtIn: BuiltInEmailTemplate,
    data: Readonly<Record<string, string>>,
  ): Record<string, string> {
    const unknown = Object.keys(data).filter((name) => !builtIn.variables.includes(name));
    if (unknown.length > 0) {
      throw new SvcValidationError(
        'The sample data names variables this template does not have.',
        unknown.map((name) => ({ path: `data.${name}`, message: knownVariables(builtIn) })),
      );
    }
    const samples = Object.fromEntries(
      builtIn.variables.map((name) => [name, SAMPLE_VALUES[name] ?? `[${name}]`]),
    );
    return { ...samples, productName: this.#productName, ...data };
  }

  #audit(
    kind: string,
    subjectId: string,
    actor: AdminActor | undefined,
    data: Readonly<Record<string, unknown>>,
  ): Promise<void> {
    return this.deps.audit.record({ kind, ...actorFields(actor), subjectId, data });
  }

  private async resolve(key: string): Promise<ResolvedEmailTemplate> {
    const builtIn = requireBuiltIn(key);
    return merge(builtIn, await this.deps.templates.find(key));
  }
}

/** The subject (on one line), text part and HTML part (values escaped) of a template's content. */
function render(template: EmailTemplate, variables: Readonly<Record<string, string>>): EmailTemplatePreview {
  return {
    subject: renderTemplate(template.subject, variables, { html: false }).replace(/[\r\n]+/g, ' '),
    textBody: renderTemplate(template.textBody, variables, { html: false }),
    htmlBody: renderTemplate(template.htmlBody, variables, { html: true }),
  };
}

/** The built-in of `key` (404 when unknown), once `content` is checked to use only its variables (400). */
function requireKnownVariables(key: string, content: EmailTemplate): BuiltInEmailTemplate {
  const builtIn = requireBuiltIn(key);
  const known = new Set(builtIn.variables);
  const issues = TEMPLATE_PARTS.flatMap((field) =>
    placeholdersIn(content[field])
      .filter((name) => !known.has(name))
      .map((name) => ({ path: field, message: `unknown variable {{${name}}}; ${knownVariables(builtIn)}` })),
  );
  if (issues.length > 0) throw new SvcValidationError('The template uses unknown variables.', issues);
  return builtIn;
}

function knownVariables(builtIn: BuiltInEmailTemplate): string {
  return `this template knows ${builtIn.variables.map((v) => `{{${v}}}`).join(', ')}`;
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

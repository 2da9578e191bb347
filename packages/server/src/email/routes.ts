import {
  emailDeliveryQuerySchema,
  emailTemplateOverrideSchema,
  emailTemplatePathSchema,
  emailTemplatePreviewSchema,
  emailTestSendSchema,
  type EmailDeliveryView,
  type EmailTemplateView,
} from '@svc/contract';
import type { FastifyPluginAsync } from 'fastify';
import { toIso } from '../kernel/clock.js';
import { parseBody, parseParams, parseQuery } from '../http/body.js';
import { jsonErrorHandler } from '../http/errors.js';
import { operatorActor } from '../http/operator-request.js';
import type { EmailService, ResolvedEmailTemplate } from './email-service.js';
import type { EmailDeliveryRecord } from './repository.js';

/** A template in its wire shape. */
export function toEmailTemplateView(template: ResolvedEmailTemplate): EmailTemplateView {
  return {
    key: template.key,
    description: template.description,
    variables: [...template.variables],
    subject: template.subject,
    textBody: template.textBody,
    htmlBody: template.htmlBody,
    overridden: template.overridden,
    updatedAt: template.updatedAt === null ? null : toIso(template.updatedAt),
  };
}

/** A delivery in its wire shape. */
export function toEmailDeliveryView(record: EmailDeliveryRecord): EmailDeliveryView {
  return {
    id: record.id,
    templateKey: record.templateKey,
    to: record.to,
    subject: record.subject,
    status: record.status,
    providerMessageId: record.providerMessageId,
    failureDetail: record.failureDetail,
    textBody: record.textBody,
    htmlBody: record.htmlBody,
    createdAt: toIso(record.createdAt),
    sentAt: record.sentAt === null ? null : toIso(record.sentAt),
  };
}

/**
 * The email admin API; the app registers it at `/svc/admin/email/api` behind the operator guard.
 * GET /templates, GET|PUT|DELETE /templates/{key}, POST /templates/{key}/preview {subject, textBody,
 * htmlBody, data?}, GET /deliveries?status=&templateKey=&limit=&cursor=, POST /test {to, templateKey?,
 * data?}. camelCase JSON;
 * bad input is a 400, an unknown template a 404, never a 5xx. The writes are audited with the operator.
 */
export function emailAdminRoutes(deps: { email: EmailService }): FastifyPluginAsync {
  return async (app) => {
    app.setErrorHandler(jsonErrorHandler);
    // Outbox rows carry development codes and links, overrides are operator content: never cached.
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.get('/templates', async () => ({
      data: (await deps.email.listTemplates()).map(toEmailTemplateView),
    }));

    app.get('/templates/:key', async (request) => {
      const { key } = parseParams(emailTemplatePathSchema, request.params);
      return toEmailTemplateView(await deps.email.getTemplate(key));
    });

    app.put('/templates/:key', async (request) => {
      const { key } = parseParams(emailTemplatePathSchema, request.params);
      const body = parseBody(emailTemplateOverrideSchema, request.body);
      return toEmailTemplateView(await deps.email.saveOverride(key, body, operatorActor(request)));
    });

    app.delete('/templates/:key', async (request) => {
      const { key } = parseParams(emailTemplatePathSchema, request.params);
      return toEmailTemplateView(await deps.email.resetTemplate(key, operatorActor(request)));
    });

    app.post('/templates/:key/preview', async (request) => {
      const { key } = parseParams(emailTemplatePathSchema, request.params);
      const { data, ...content } = parseBody(emailTemplatePreviewSchema, request.body);
      return deps.email.previewTemplate(key, content, data);
    });

    app.get('/deliveries', async (request) => {
      const query = parseQuery(emailDeliveryQuerySchema, request.query);
      const page = await deps.email.listDeliveries(query);
      return { data: page.data.map(toEmailDeliveryView), nextCursor: page.nextCursor };
    });

    app.post('/test', async (request, reply) => {
      const body = parseBody(emailTestSendSchema, request.body);
      const record = await deps.email.sendTest(body, operatorActor(request));
      return reply.status(201).send(toEmailDeliveryView(record));
    });
  };
}

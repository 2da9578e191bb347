import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAuditLog } from '../audit/audit-service.js';
import { randomIds } from '../kernel/ids.js';
import { openDatabase, type DatabaseHandle } from '../storage/database.js';
import { auditEventsRepository } from '../storage/repositories/audit-events.js';
import { emailDeliveriesRepository } from '../storage/repositories/email-deliveries.js';
import { emailTemplatesRepository } from '../storage/repositories/email-templates.js';
import { createTestDatabase, type TestDatabase } from '../test-support/databases.js';
import { FakeClock } from '../test-support/fake-clock.js';
import { startTestSmtpServer, type TestSmtpServer } from '../test-support/smtp-server.js';
import { EmailService } from './email-service.js';
import { emailAdminRoutes } from './routes.js';
import { smtpTransport, smtpUrlSecrets } from './smtp-transport.js';
import type { EmailTransport } from './transport.js';

const BASE = '/svc/admin/email/api';

describe('email admin routes', () => {
  let testDb: TestDatabase;
  let handle: DatabaseHandle;
  let app: FastifyInstance;
  let smtp: TestSmtpServer;
  let transport: EmailTransport;

  beforeEach(async () => {
    testDb = await createTestDatabase('sqlite', 'migrated');
    handle = openDatabase(testDb.target);
    smtp = await startTestSmtpServer();
    const clock = new FakeClock();
    // The routes under test over an EmailService that delivers through the loopback SMTP server.
    transport = smtpTransport(smtp.url());
    const email = new EmailService({
      templates: emailTemplatesRepository(handle.db),
      deliveries: emailDeliveriesRepository(handle.db),
      transport,
      clock,
      ids: randomIds,
      audit: createAuditLog({ repository: auditEventsRepository(handle.db), clock, ids: randomIds }),
      from: 'Svc <no-reply@localhost>',
      development: true,
      secrets: smtpUrlSecrets(smtp.url()),
    });
    app = Fastify();
    await app.register(emailAdminRoutes({ email }), { prefix: BASE });
  });
  afterEach(async () => {
    await app.close();
    transport.close?.();
    await smtp.close();
    await handle.close();
    await testDb.drop();
  });

  const events = async () => (await auditEventsRepository(handle.db).list({}, { limit: 50 })).data;

  it('lists the built-in templates and reads one', async () => {
    const list = await app.inject({ method: 'GET', url: `${BASE}/templates` });
    expect(list.statusCode).toBe(200);
    expect(list.headers['cache-control']).toBe('no-store');
    const keys = (list.json() as { data: { key: string; overridden: boolean }[] }).data.map((t) => t.key);
    expect(keys).toEqual([
      'auth.password-reset',
      'auth.email-otp',
      'auth.magic-link',
      'auth.invitation',
      'auth.email-verification',
      'email.test',
    ]);
    const one = await app.inject({ method: 'GET', url: `${BASE}/templates/auth.password-reset` });
    expect(one.json()).toMatchObject({
      key: 'auth.password-reset',
      overridden: false,
      updatedAt: null,
      variables: ['productName', 'link', 'expiresInMinutes'],
    });
    const missing = await app.inject({ method: 'GET', url: `${BASE}/templates/auth.unknown` });
    expect(missing.statusCode).toBe(404);
  });

  it('saves an override (keys case-insensitive), rejects unknown variables and resets', async () => {
    const url = `${BASE}/templates/email.test`;
    const bad = await app.inject({
      method: 'PUT',
      url,
      payload: { subject: 'Hi {{name}}', textBody: 'x', htmlBody: 'y' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('{{name}}');
    const saved = await app.inject({
      method: 'PUT',
      url,
      payload: { Subject: 'Hello from {{productName}}', textBody: 'plain', htmlBody: '<p>rich</p>' },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ overridden: true, subject: 'Hello from {{productName}}' });
    expect((await app.inject({ method: 'GET', url })).json()).toMatchObject({
      overridden: true,
      textBody: 'plain',
    });
    const reset = await app.inject({ method: 'DELETE', url });
    expect(reset.json()).toMatchObject({ overridden: false, subject: '{{productName}} test email' });
    // The operator is the actor; the data names the parts, never the content.
    const audited = await events();
    expect(audited.map((e) => [e.kind, e.actorType, e.ipAddress, e.subjectId]).sort()).toEqual([
      ['admin.email_template.reset', 'operator', '127.0.0.1', 'email.test'],
      ['admin.email_template.updated', 'operator', '127.0.0.1', 'email.test'],
    ]);
    expect(JSON.stringify(audited)).not.toContain('rich');
  });

  it('previews an unsaved override as it would be sent, without saving it', async () => {
    const url = `${BASE}/templates/auth.password-reset/preview`;
    const preview = await app.inject({
      method: 'POST',
      url,
      payload: {
        subject: 'Reset for {{productName}}',
        textBody: 'Go to {{link}}',
        htmlBody: '<a href="{{link}}">{{expiresInMinutes}}</a>',
        data: { link: 'https://x.test/?a=1&b=<2>' },
      },
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.headers['cache-control']).toBe('no-store');
    expect(preview.json()).toEqual({
      subject: 'Reset for Svc',
      textBody: 'Go to https://x.test/?a=1&b=<2>',
      htmlBody: '<a href="https://x.test/?a=1&amp;b=&lt;2&gt;">15</a>',
    });
    const unknown = await app.inject({
      method: 'POST',
      url,
      payload: { subject: '{{code}}', textBody: 'x', htmlBody: 'y' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('{{code}}');
    const template = await app.inject({ method: 'GET', url: `${BASE}/templates/auth.password-reset` });
    expect(template.json()).toMatchObject({ overridden: false });
    expect(await events()).toEqual([]);
  });

  it('sends a test email through SMTP and lists it among the deliveries', async () => {
    const sent = await app.inject({
      method: 'POST',
      url: `${BASE}/test`,
      payload: { to: 'ops@example.test' },
    });
    expect(sent.statusCode).toBe(201);
    const delivery = sent.json() as Record<string, unknown>;
    expect(delivery).toMatchObject({ templateKey: 'email.test', to: 'ops@example.test', status: 'sent' });
    const [message] = await smtp.waitFor(1);
    expect(message?.headers.subject).toBe('Svc test email');
    expect(message?.text).toContain('Delivery works.');
    const list = await app.inject({
      method: 'GET',
      url: `${BASE}/deliveries?status=sent&templateKey=email.test`,
    });
    expect((list.json() as { data: unknown[] }).data).toEqual([delivery]);
    const none = await app.inject({ method: 'GET', url: `${BASE}/deliveries?status=failed` });
    expect(none.json()).toEqual({ data: [], nextCursor: null });
    // Audited with the recipient's domain only.
    const [audited] = await events();
    expect(audited).toMatchObject({
      kind: 'admin.email.test_sent',
      actorType: 'operator',
      subjectId: delivery.id,
      data: { deliveryId: delivery.id, status: 'sent', recipientDomain: 'example.test' },
    });
    expect(JSON.stringify(audited)).not.toContain('ops@');

    const named = await app.inject({
      method: 'POST',
      url: `${BASE}/test`,
      payload: { to: 'ops@example.test', templateKey: 'auth.magic-link' },
    });
    expect(named.statusCode, named.body).toBe(201);
    expect(named.json()).toMatchObject({ templateKey: 'auth.magic-link', subject: 'Sign in to Svc' });
    const unknown = await app.inject({
      method: 'POST',
      url: `${BASE}/test`,
      payload: { to: 'ops@example.test', templateKey: 'auth.nope' },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ message: expect.stringContaining('"auth.nope"') });
  });

  it.each([
    ['PUT', '/templates/email.test', 'not json at all'],
    ['PUT', '/templates/email.test', { subject: '', textBody: 'x', htmlBody: 'y' }],
    ['PUT', '/templates/email.test', [1, 2]],
    ['PUT', '/templates/nope', { subject: 's', textBody: 'x', htmlBody: 'y' }],
    ['DELETE', '/templates/nope', undefined],
    ['POST', '/test', { to: 'not-an-email' }],
    ['POST', '/test', {}],
    ['POST', '/test', { to: 'ops@example.test', templateKey: 'Bad Key' }],
    ['POST', '/test', { to: 'ops@example.test', templateKey: 'auth.nope' }],
    ['POST', '/test', { to: 'ops@example.test', data: { link: 'x' } }],
    ['POST', '/templates/nope/preview', { subject: 's', textBody: 'x', htmlBody: 'y' }],
    ['POST', '/templates/email.test/preview', { subject: 's', textBody: 'x' }],
    ['POST', '/templates/email.test/preview', { subject: 's', textBody: 'x', htmlBody: 'y', data: [1] }],
    ['POST', '/templates/email.test/preview', { subject: 's', textBody: 'x', htmlBody: 'y', data: { a: 1 } }],
    ['GET', '/deliveries?status=lost', undefined],
    ['GET', '/deliveries?limit=0', undefined],
    ['GET', '/deliveries?cursor=%00bad', undefined],
    ['GET', '/deliveries?templateKey=Bad%20Key', undefined],
  ] as const)('answers %s %s with a 4xx for malformed input', async (method, path, payload) => {
    const response = await app.inject({
      method,
      url: `${BASE}${path}`,
      ...(payload === undefined
        ? {}
        : typeof payload === 'string'
          ? { payload, headers: { 'content-type': 'application/json' } }
          : { payload: payload as object }),
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.json()).toHaveProperty('error');
  });
});

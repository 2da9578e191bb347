import { emailDeliveryQuerySchema } from '@svc/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAuditLog } from '../audit/audit-service.js';
import { DEFAULT_PASSWORD_HASH_COST } from '../directory/password-hash-cost.js';
import { SvcNotFoundError, SvcValidationError } from '../kernel/errors.js';
import type { Ids } from '../kernel/ids.js';
import { openDatabase, type DatabaseHandle } from '../storage/database.js';
import { auditEventsRepository } from '../storage/repositories/audit-events.js';
import { emailDeliveriesRepository } from '../storage/repositories/email-deliveries.js';
import { emailTemplatesRepository } from '../storage/repositories/email-templates.js';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../test-support/databases.js';
import { FakeClock } from '../test-support/fake-clock.js';
import { linkIn, readOutbox } from '../test-support/outbox.js';
import { startTestSmtpServer, type TestSmtpServer } from '../test-support/smtp-server.js';
import { createTestSvc } from '../test-support/test-svc.js';
import { EmailService } from './email-service.js';
import { smtpTransport, smtpUrlSecrets } from './smtp-transport.js';

function countingIds(): Ids {
  let n = 0;
  return { id: (prefix) => `${prefix}_${String(++n).padStart(4, '0')}`, secret: () => 'not-used' };
}

describeEachDatabase('email service', (kind) => {
  let testDb: TestDatabase;
  let handle: DatabaseHandle;
  let clock: FakeClock;
  let smtp: TestSmtpServer | undefined;
  let closers: (() => void)[];
  let logs: string[];
  let ids: Ids;

  /** The service under test: SMTP through `smtpUrl` (the password kept out of every log), else the outbox. */
  const service = (smtpUrl: string | undefined, development = true): EmailService => {
    const transport = smtpUrl === undefined ? undefined : smtpTransport(smtpUrl);
    closers.push(() => transport?.close?.());
    return new EmailService({
      templates: emailTemplatesRepository(handle.db),
      deliveries: emailDeliveriesRepository(handle.db),
      transport,
      clock,
      ids,
      audit: createAuditLog({ repository: auditEventsRepository(handle.db), clock, ids }),
      from: 'Acme <no-reply@acme.test>',
      development,
      secrets: smtpUrl === undefined ? [] : smtpUrlSecrets(smtpUrl),
      logger: { info: (m) => logs.push(m) },
    });
  };
  const deliveries = (email: EmailService, query: Record<string, unknown> = {}) =>
    email.listDeliveries(emailDeliveryQuerySchema.parse(query));
  /** The audit events, oldest first. */
  const events = async () => (await auditEventsRepository(handle.db).list({}, { limit: 50 })).data.reverse();

  beforeEach(async () => {
    testDb = await createTestDatabase(kind, 'migrated');
    handle = openDatabase(testDb.target);
    clock = new FakeClock();
    closers = [];
    logs = [];
    ids = countingIds();
    smtp = undefined;
  });
  afterEach(async () => {
    for (const close of closers) close();
    await smtp?.close();
    await handle.close();
    await testDb.drop();
  });

  it('delivers through real SMTP with subject, text and HTML parts and records the message id', async () => {
    smtp = await startTestSmtpServer();
    const email = service(smtp.url({ user: 'mailer', password: 'pa55word' }));
    const delivery = await email.send({
      templateKey: 'auth.password-reset',
      to: 'ada@example.test',
      variables: {
        link: 'https://id.example.test/svc/auth/password/reset?token=abc&x=<1>',
        expiresInMinutes: '30',
      },
    });
    expect(delivery.status).toBe('sent');
    expect(delivery.providerMessageId).toMatch(/^<.+@.+>$/);
    const [message] = await smtp.waitFor(1);
    expect(message?.user).toBe('mailer');
    expect(message?.rcptTo).toEqual(['ada@example.test']);
    expect(message?.mailFrom).toBe('no-reply@acme.test');
    expect(message?.headers.from).toBe('Acme <no-reply@acme.test>');
    expect(message?.headers.to).toBe('ada@example.test');
    expect(message?.headers.subject).toBe('Reset your Svc password');
    expect(message?.headers['message-id']).toBe(delivery.providerMessageId);
    expect(message?.text).toContain(
      'Reset it here: https://id.example.test/svc/auth/password/reset?token=abc&x=<1>',
    );
    // The HTML part escapes every variable.
    expect(message?.html).toContain(
      'href="https://id.example.test/svc/auth/password/reset?token=abc&amp;x=&lt;1&gt;"',
    );
    expect(message?.html).not.toContain('x=<1>');
    // The log keeps no body for an SMTP delivery: the link is a secret at rest.
    const page = await deliveries(email);
    expect(page.data).toEqual([
      {
        id: delivery.id,
        templateKey: 'auth.password-reset',
        to: 'ada@example.test',
        subject: 'Reset your Svc password',
        status: 'sent',
        providerMessageId: delivery.providerMessageId,
        failureDetail: null,
        textBody: null,
        htmlBody: null,
        createdAt: clock.now(),
        sentAt: clock.now(),
      },
    ]);
  });

  it('records a refused recipient as failed with a sanitized detail and never leaks the SMTP password', async () => {
    smtp = await startTestSmtpServer({ rejectRecipients: 'Mailbox unavailable' });
    const email = service(smtp.url({ user: 'mailer', password: 's3cret-Pw' }));
    const delivery = await email.send({
      templateKey: 'auth.email-otp',
      to: 'nobody@example.test',
      variables: { code: '123456', expiresInMinutes: '10' },
    });
    expect(delivery.status).toBe('failed');
    expect(delivery.providerMessageId).toBeNull();
    expect(delivery.failureDetail).toContain('550');
    expect(delivery.failureDetail?.length).toBeLessThanOrEqual(500);
    const [row] = (await deliveries(email, { status: 'failed' })).data;
    expect(row?.failureDetail).toBe(delivery.failureDetail);
    expect(row?.sentAt).toBeNull();
    const everything = JSON.stringify({ delivery, row, logs });
    expect(everything).not.toContain('s3cret-Pw');
    expect(everything).not.toContain('123456');
    expect(logs.some((line) => line.includes(delivery.id) && line.includes('failed'))).toBe(true);
  });

  it('records an unreachable relay as failed instead of throwing', async () => {
    const probe = await startTestSmtpServer();
    const url = `smtp://mailer:Hidden-99@127.0.0.1:${probe.port}`;
    await probe.close();
    const delivery = await service(url).send({
      templateKey: 'email.test',
      to: 'a@example.test',
      variables: {},
    });
    expect(delivery.status).toBe('failed');
    expect(delivery.failureDetail).toMatch(/ECONNREFUSED|connect/i);
    expect(JSON.stringify({ delivery, logs })).not.toContain('Hidden-99');
  });

  it('keeps the rendered message in the development outbox and lists it', async () => {
    const email = service(undefined, true);
    const delivery = await email.send({
      templateKey: 'auth.invitation',
      to: 'grace@example.test',
      variables: {
        organizationName: 'Acme & <Co>',
        link: 'http://localhost/i?t=1',
        expiresInMinutes: '10080',
      },
    });
    expect(delivery).toEqual({
      id: delivery.id,
      status: 'outbox',
      providerMessageId: null,
      failureDetail: null,
    });
    const [row] = (await deliveries(email, { status: 'outbox', templateKey: 'auth.invitation' })).data;
    expect(row?.subject).toBe('You are invited to join Acme & <Co> on Svc');
    expect(row?.textBody).toContain('Accept the invitation: http://localhost/i?t=1');
    expect(row?.htmlBody).toContain('<strong>Acme &amp; &lt;Co&gt;</strong>');
    expect(logs).toEqual([
      expect.stringContaining(
        `email ${delivery.id} (auth.invitation) to grace@example.test stored in the outbox`,
      ),
    ]);
    expect(logs.join()).not.toContain('http://localhost/i?t=1');
    const [captured] = await readOutbox(email, { to: 'grace@example.test' });
    expect(captured?.id).toBe(delivery.id);
    expect(linkIn(captured?.textBody ?? null)).toBe('http://localhost/i?t=1');
    expect(await readOutbox(email, { to: 'other@example.test' })).toEqual([]);
    expect((await deliveries(email, { status: 'sent' })).data).toEqual([]);
    expect((await deliveries(email, { templateKey: 'auth.magic-link' })).data).toEqual([]);
  });

  it('keeps no body in a production outbox and says that SMTP is missing', async () => {
    const email = service(undefined, false);
    await email.send({
      templateKey: 'auth.magic-link',
      to: 'a@example.test',
      variables: { link: 'https://x.test/m?token=t0k', expiresInMinutes: '15' },
    });
    const [row] = (await deliveries(email)).data;
    expect(row).toMatchObject({ status: 'outbox', textBody: null, htmlBody: null });
    expect(logs).toEqual([expect.stringContaining('stored in the outbox; SVC_SMTP_URL is not set')]);
    expect(logs.join()).not.toContain('t0k');
  });

  it('pages the delivery log newest first', async () => {
    const email = service(undefined);
    for (let i = 0; i < 3; i++) {
      await email.send({ templateKey: 'email.test', to: `u${i}@example.test`, variables: {} });
      clock.advance(1000);
    }
    const first = await deliveries(email, { limit: 2 });
    expect(first.data.map((d) => d.to)).toEqual(['u2@example.test', 'u1@example.test']);
    const second = await deliveries(email, { limit: 2, cursor: first.nextCursor ?? undefined });
    expect(second.data.map((d) => d.to)).toEqual(['u0@example.test']);
    expect(second.nextCursor).toBeNull();
  });

  it('applies, validates and resets operator overrides', async () => {
    const email = service(undefined);
    await expect(
      email.saveOverride('auth.email-otp', {
        subject: 'Code {{code}}',
        textBody: '{{code}} {{secretSauce}}',
        htmlBody: '<b>{{code}}</b>',
      }),
    ).rejects.toBeInstanceOf(SvcValidationError);
    const saved = await email.saveOverride('auth.email-otp', {
      subject: 'Code for {{productName}}',
      textBody: 'Use {{code}}',
      htmlBody: '<p>Use <b>{{ code }}</b></p>',
    });
    expect(saved).toMatchObject({
      overridden: true,
      updatedAt: clock.now(),
      subject: 'Code for {{productName}}',
    });
    await email.send({
      templateKey: 'auth.email-otp',
      to: 'a@example.test',
      variables: { code: '<42>', expiresInMinutes: '10' },
    });
    const [row] = (await deliveries(email)).data;
    expect(row).toMatchObject({
      subject: 'Code for Svc',
      textBody: 'Use <42>',
      htmlBody: '<p>Use <b>&lt;42&gt;</b></p>',
    });
    expect((await email.listTemplates()).filter((t) => t.overridden).map((t) => t.key)).toEqual([
      'auth.email-otp',
    ]);
    // Outside the development outbox, a subject that uses a secret variable is logged masked.
    const production = service(undefined, false);
    await production.saveOverride('auth.email-otp', {
      subject: 'Code {{code}}',
      textBody: '{{code}}',
      htmlBody: '{{code}}',
    });
    await production.send({
      templateKey: 'auth.email-otp',
      to: 'b@example.test',
      variables: { code: '987654', expiresInMinutes: '10' },
    });
    const [masked] = (await deliveries(production, { limit: 1 })).data;
    expect(masked).toMatchObject({ to: 'b@example.test', subject: 'Code •••', textBody: null });
    const reset = await email.resetTemplate('auth.email-otp');
    expect(reset).toMatchObject({
      overridden: false,
      updatedAt: null,
      subject: 'Your {{productName}} sign-in code',
    });
    expect((await email.getTemplate('auth.email-otp')).overridden).toBe(false);
    await email.resetTemplate('auth.email-otp', { actorType: 'operator', actorId: 'usr_op' });
    // Each save and reset is audited with the parts that changed, never their content.
    const audited = await events();
    expect(audited.map((e) => [e.kind, e.subjectId, e.actorType, e.data])).toEqual([
      [
        'admin.email_template.updated',
        'auth.email-otp',
        'system',
        { templateKey: 'auth.email-otp', changed: ['subject', 'textBody', 'htmlBody'], wasOverridden: false },
      ],
      [
        'admin.email_template.updated',
        'auth.email-otp',
        'system',
        { templateKey: 'auth.email-otp', changed: ['subject', 'textBody', 'htmlBody'], wasOverridden: true },
      ],
      [
        'admin.email_template.reset',
        'auth.email-otp',
        'system',
        { templateKey: 'auth.email-otp', wasOverridden: true },
      ],
      [
        'admin.email_template.reset',
        'auth.email-otp',
        'operator',
        { templateKey: 'auth.email-otp', wasOverridden: false },
      ],
    ]);
    expect(audited[3]?.actorId).toBe('usr_op');
  });

  it('previews unsaved content through the renderer of send(), storing and sending nothing', async () => {
    const email = service(undefined);
    const content = {
      subject: 'Join {{organizationName}}\r\nnow',
      textBody: '{{link}} ({{expiresInMinutes}} min)',
      htmlBody: '<a href="{{link}}">{{organizationName}}</a> {{productName}}',
    };
    expect(email.previewTemplate('auth.invitation', content, { organizationName: '<Acme & Co>' })).toEqual({
      subject: 'Join <Acme & Co> now',
      textBody: 'https://example.com/svc/auth/sample-link (15 min)',
      htmlBody: '<a href="https://example.com/svc/auth/sample-link">&lt;Acme &amp; Co&gt;</a> Svc',
    });
    expect(() => email.previewTemplate('auth.invitation', { ...content, textBody: '{{code}}' })).toThrow(
      SvcValidationError,
    );
    expect(() => email.previewTemplate('auth.invitation', content, { code: '1' })).toThrow(
      expect.objectContaining({ details: [expect.objectContaining({ path: 'data.code' })] }),
    );
    expect(() => email.previewTemplate('auth.nope', content)).toThrow(SvcNotFoundError);
    expect((await email.getTemplate('auth.invitation')).overridden).toBe(false);
    expect((await deliveries(email)).data).toEqual([]);
    expect(await events()).toEqual([]);
  });

  it('sends any template as a test, its override and the given samples included, and audits which', async () => {
    const email = service(undefined);
    await email.saveOverride('auth.password-reset', {
      subject: 'Reset at {{productName}}',
      textBody: 'Go to {{link}} within {{expiresInMinutes}} minutes',
      htmlBody: '<a href="{{link}}">Reset</a>',
    });
    const sent = await email.sendTest(
      { to: 'ops@example.test', templateKey: 'auth.password-reset', data: { link: 'https://x.test/r' } },
      { actorType: 'operator', actorId: 'usr_op' },
    );
    expect(sent).toMatchObject({
      templateKey: 'auth.password-reset',
      to: 'ops@example.test',
      subject: 'Reset at Svc',
      textBody: 'Go to https://x.test/r within 15 minutes',
    });
    expect((await email.sendTest({ to: 'ops@example.test' })).templateKey).toBe('email.test');
    await expect(email.sendTest({ to: 'ops@example.test', templateKey: 'auth.nope' })).rejects.toThrow(
      'There is no email template "auth.nope".',
    );
    await expect(
      email.sendTest({ to: 'ops@example.test', templateKey: 'auth.password-reset', data: { code: '1' } }),
    ).rejects.toThrow(expect.objectContaining({ details: [expect.objectContaining({ path: 'data.code' })] }));
    expect((await deliveries(email)).data).toHaveLength(2);
    const tests = (await events()).filter((e) => e.kind === 'admin.email.test_sent');
    expect(tests.map((e) => [e.actorId, e.data.templateKey, e.data.recipientDomain])).toEqual([
      ['usr_op', 'auth.password-reset', 'example.test'],
      [null, 'email.test', 'example.test'],
    ]);
  });

  it('throws for programming errors: an unknown template or a missing variable', async () => {
    const email = service(undefined);
    await expect(
      email.send({ templateKey: 'auth.nope', to: 'a@example.test', variables: {} }),
    ).rejects.toBeInstanceOf(SvcNotFoundError);
    await expect(
      email.send({ templateKey: 'auth.email-otp', to: 'a@example.test', variables: {} }),
    ).rejects.toThrow(/"code" has no value/);
    expect((await deliveries(email)).data).toEqual([]);
  });
});

describe('a production Svc without SMTP', () => {
  // The warning is written while the email service is built, before the app's logger exists.
  it('warns at start that emails (codes, links, invitations) are not delivered', async () => {
    const lines: string[] = [];
    const t = await createTestSvc('sqlite', {
      development: false,
      passwordHashing: DEFAULT_PASSWORD_HASH_COST,
      logLevel: 'warn',
      logStream: { write: (line) => lines.push(line) },
    });
    try {
      expect(lines.join('')).toContain('SVC_SMTP_URL is not set: emails (codes, links, invitations)');
    } finally {
      await t.close();
    }
  });
});

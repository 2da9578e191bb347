import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSmtpServer, type TestSmtpServer } from '../test-support/smtp-server.js';
import { createTestSvc, type TestSvc } from '../test-support/test-svc.js';

describe('passwordless direct routes', () => {
  let t: TestSvc;
  let smtp: TestSmtpServer;
  let app: FastifyInstance;
  let base: string;
  const clientId = 'direct-app';
  let bobId: string;

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    t = await createTestSvc('sqlite', { smtpUrl: smtp.url() });
    app = t.svc.app;
    base = t.svc.config.authBase;
    await t.svc.admin.createClientAsync({
      clientId,
      name: 'Direct',
      audience: 'https://api.example.com',
      redirectUris: ['https://app.example.com/callback'],
      isFirstParty: true,
    });
    bobId = (
      await t.svc.admin.createUserAsync({ displayName: 'Bob', email: 'bob@example.com', password: null })
    ).id;
  });

  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const post = (path: string, payload: unknown, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: `${base}${path}`,
      headers: { 'content-type': 'application/json', ...headers },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });

  /** The direct sign-in successes since `after` of them: who, where, how. */
  const successes = async (after = 0) =>
    (
      await t.svc.database.db
        .selectFrom('auditEvents')
        .selectAll()
        .where('kind', '=', 'oauth.direct_login.succeeded')
        .orderBy('occurredAt')
        .orderBy('id')
        .execute()
    )
      .slice(after)
      .map((event) => ({
        actorId: event.actorId,
        userId: event.userId,
        clientId: event.clientId,
        organizationId: event.organizationId,
        ipAddress: event.ipAddress,
        data: JSON.parse(event.dataJson) as unknown,
      }));

  it('signs in with an emailed code; field names are case-insensitive; no-store', async () => {
    const start = await post('/email-otp/start', { EMAIL: 'bob@example.com', clientid: clientId });
    expect(start.statusCode).toBe(200);
    expect(start.headers['cache-control']).toBe('no-store');
    const body = start.json<{ challengeToken: string; maskedEmail: string }>();
    expect(body.maskedEmail).toBe('b***@example.com');
    const [message] = await smtp.waitFor(1);
    const code = /code is (\d{6})/.exec(message?.text ?? '')?.[1] ?? '';
    const verify = await post('/email-otp/verify', { challengeToken: body.challengeToken, code });
    expect(verify.statusCode).toBe(200);
    expect(verify.json<{ tokens: { clientId: string } }>().tokens.clientId).toBe(clientId);
    // Audited as a direct password sign-in is, with the hosted step's name of the method.
    expect(await successes()).toEqual([
      {
        actorId: bobId,
        userId: bobId,
        clientId,
        organizationId: null,
        ipAddress: '127.0.0.1',
        data: { route: `${base}/email-otp/verify`, method: 'email_otp' },
      },
    ]);
    const again = await post('/email-otp/verify', { challengeToken: body.challengeToken, code });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ error: 'invalid_code' });
  });

  it('answers byte-identical magic-link starts for known and unknown addresses; a completion is audited', async () => {
    t.clock.advance(60_000);
    const before = smtp.messages.length;
    const audited = (await successes()).length;
    const { id: organizationId } = await t.svc.admin.createOrganizationAsync({ name: 'Bob Corp' });
    await t.svc.admin.createMembershipAsync({ organizationId, userId: bobId, role: 'member' });
    const known = await post('/magic-link/start', { email: 'bob@example.com', clientId, organizationId });
    const unknown = await post('/magic-link/start', { email: 'bart@example.com', clientId, organizationId });
    expect(known.statusCode).toBe(200);
    expect(unknown.body).toBe(known.body);
    const message = (await smtp.waitFor(before + 1))[before];
    const link = /(http\S+magic-link\?token=\S+)/.exec(message?.text ?? '')?.[1] ?? '';
    const token = new URL(link).searchParams.get('token') ?? '';
    const complete = await post('/magic-link/complete', { token, clientId });
    expect(complete.statusCode, complete.body).toBe(200);
    expect(await successes(audited)).toEqual([
      {
        actorId: bobId,
        userId: bobId,
        clientId,
        organizationId,
        ipAddress: '127.0.0.1',
        data: { route: `${base}/magic-link/complete`, method: 'magic_link' },
      },
    ]);
    const replay = await post('/magic-link/complete', { token, clientId });
    expect(replay.json()).toMatchObject({ error: 'invalid_token' });
  });

  it('answers the first-party gate with 400 invalid_client', async () => {
    const response = await post('/email-otp/start', { email: 'bob@example.com', clientId: 'missing' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_client' });
  });

  const long = 'a'.repeat(100_000);
  const malformed: [string, unknown][] = [
    ['/email-otp/start', 'not json'],
    ['/email-otp/start', '[]'],
    ['/email-otp/start', 'null'],
    ['/email-otp/start', {}],
    ['/email-otp/start', { email: 42, clientId }],
    ['/email-otp/start', { email: `${long}@example.com`, clientId }],
    ['/email-otp/start', { email: 'bob@example.com', clientId: { $ne: 1 } }],
    ['/email-otp/start', { email: 'bob@example.com', clientId: 'has space' }],
    ['/email-otp/verify', {}],
    ['/email-otp/verify', { challengeToken: long, code: '123456' }],
    ['/email-otp/verify', { challengeToken: 'abc', code: 123456 }],
    ['/email-otp/verify', { challengeToken: 'abc\u0000', code: '123456' }],
    ['/email-otp/verify', { challengeToken: 'abc', code: long }],
    ['/email-otp/verify', { challengeToken: 'unknown-token', code: '123456' }],
    ['/magic-link/start', { email: 'nope' }],
    ['/magic-link/start', { email: ['bob@example.com'], clientId }],
    ['/magic-link/complete', {}],
    ['/magic-link/complete', { token: 'unknown', clientId }],
    ['/magic-link/complete', { token: '', clientId }],
    ['/magic-link/complete', { token: long, clientId }],
  ];
  for (const [path, payload] of malformed) {
    it(`answers malformed ${path} ${JSON.stringify(payload).slice(0, 60)} with a 4xx {error, message}`, async () => {
      const response = await post(path, payload);
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
      const body = response.json<{ error: unknown; message: unknown }>();
      expect(typeof body.error).toBe('string');
      expect(typeof body.message).toBe('string');
    });
  }
});

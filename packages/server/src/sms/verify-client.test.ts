import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SvcInvalidOperationError } from '../kernel/errors.js';
import { FakeSmsProvider } from '../test-support/fake-sms-provider.js';
import { FakeClock } from '../test-support/fake-clock.js';
import {
  SmsProviderError,
  TwilioVerifyClient,
  createSmsVerificationProvider,
  UnconfiguredSmsProvider,
} from './verify-client.js';

const TO = '+12015550123';

async function rejection(promise: Promise<unknown>): Promise<SmsProviderError> {
  const error = await promise.then(
    () => new Error('expected a rejection'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SmsProviderError);
  expect(error).toBeInstanceOf(SvcInvalidOperationError);
  return error as SmsProviderError;
}

describe('Twilio Verify client against the loopback fake', () => {
  const clock = new FakeClock();
  let fake: FakeSmsProvider;
  let client: TwilioVerifyClient;

  beforeAll(async () => {
    fake = await FakeSmsProvider.start({ clock });
    client = new TwilioVerifyClient(fake.config());
  });
  afterAll(async () => {
    await fake.close();
  });

  it('start sends a six-digit code and answers pending with a verification sid', async () => {
    const started = await client.startVerification(TO);
    expect(started.status).toBe('pending');
    expect(started.sid).toMatch(/^VE[0-9a-f]{32}$/);
    expect(fake.lastCode(TO)).toMatch(/^\d{6}$/);
    const request = fake.requests.at(-1);
    expect(request?.path).toBe(`/v2/Services/${fake.verifyServiceId}/Verifications`);
    expect(Object.fromEntries(request?.form ?? [])).toEqual({ To: TO, Channel: 'sms' });
    expect(request?.authorization).toBe(
      `Basic ${Buffer.from(`${fake.accountId}:${fake.authToken}`).toString('base64')}`,
    );
  });

  it('a wrong code is pending and not approved; the right one is approved once', async () => {
    const to = '+12015550124';
    await client.startVerification(to);
    const code = fake.lastCode(to) ?? '';
    const wrong = code === '000000' ? '111111' : '000000';
    expect(await client.checkVerification(to, wrong)).toEqual({ approved: false, status: 'pending' });
    expect(await client.checkVerification(to, code)).toEqual({ approved: true, status: 'approved' });
    expect(Object.fromEntries(fake.requests.at(-1)?.form ?? [])).toEqual({ To: to, Code: code });
    // Twilio answers 404 for an approved verification: the replay is a code that no longer works.
    expect(await client.checkVerification(to, code)).toEqual({ approved: false, status: 'expired' });
  });

  it('a code older than ten minutes is expired', async () => {
    const to = '+12015550125';
    await client.startVerification(to);
    const code = fake.lastCode(to) ?? '';
    clock.advance(10 * 60_000);
    expect(await client.checkVerification(to, code)).toEqual({ approved: false, status: 'expired' });
  });

  it('a check without any verification is expired, not an error', async () => {
    expect(await client.checkVerification('+12015550199', '123456')).toEqual({
      approved: false,
      status: 'expired',
    });
  });

  it('too many wrong codes is an invalid-operation error', async () => {
    const to = '+12015550126';
    await client.startVerification(to);
    for (let i = 0; i < 5; i += 1) await client.checkVerification(to, 'abcdef');
    const error = await rejection(client.checkVerification(to, fake.lastCode(to) ?? ''));
    expect(error.message).toMatch(/Too many incorrect codes/);
    expect(error.providerCode).toBe(60202);
  });

  it('wrong credentials are an invalid-operation error that never quotes the token', async () => {
    const wrong = new TwilioVerifyClient({ ...fake.config(), authToken: 'not-the-token-7f3a' });
    const error = await rejection(wrong.startVerification(TO));
    expect(error.message).toMatch(/rejected the configured credentials/);
    expect(error.providerStatus).toBe(401);
    expect(error.message).not.toContain('not-the-token-7f3a');
    expect(error.message).not.toContain(fake.authToken);
    expect(JSON.stringify(error)).not.toContain('not-the-token-7f3a');
  });

  it('an unknown service id is an invalid-operation error', async () => {
    const wrong = new TwilioVerifyClient({ ...fake.config(), verifyServiceId: 'VAnope' });
    const error = await rejection(wrong.startVerification(TO));
    expect(error.message).toMatch(/SVC_SMS_VERIFY_SERVICE_ID/);
    expect(error.providerStatus).toBe(404);
  });

  it('a number the provider refuses is an invalid-operation error without the number', async () => {
    fake.failNext(400, { code: 60200, message: `Invalid parameter To: ${TO}`, more_info: '', status: 400 });
    const error = await rejection(client.startVerification(TO));
    expect(error.message).toBe('This phone number cannot receive SMS verification codes.');
    expect(error.message).not.toContain(TO);
  });

  it('a provider 5xx is an invalid-operation error', async () => {
    fake.failNext(503);
    const error = await rejection(client.startVerification(TO));
    expect(error.message).toMatch(/could not send the code \(HTTP 503, error 20500\)/);
    fake.failNext(500, 'not json');
    const check = await rejection(client.checkVerification(TO, '123456'));
    expect(check.message).toMatch(/could not check the code \(HTTP 500\)/);
    expect(check.message).not.toContain('123456');
  });

  it('a 2xx without a verification body is an invalid-operation error', async () => {
    fake.failNext(201, { hello: 'world' });
    const error = await rejection(client.startVerification(TO));
    expect(error.message).toMatch(/unexpected response/);
  });
});

describe('Twilio Verify client failures of the network', () => {
  let silent: Server;
  let port = 0;
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    // Accepts connections and never answers: the client must give up on its own.
    silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    port = (silent.address() as AddressInfo).port;
  });
  afterEach(() => {
    for (const socket of sockets) socket.destroy();
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  const config = (apiBaseUrl: string) => ({
    accountId: 'AC1',
    authToken: 'secret-auth-token',
    verifyServiceId: 'VA1',
    defaultRegion: 'US' as const,
    apiBaseUrl,
  });

  it('a provider that never answers times out as an invalid-operation error', async () => {
    const client = new TwilioVerifyClient(config(`http://127.0.0.1:${port}`), { timeoutMs: 200 });
    const error = await rejection(client.startVerification(TO));
    expect(error.message).toMatch(/did not answer in time/);
  });

  it('an unreachable provider is an invalid-operation error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const client = new TwilioVerifyClient(config(`http://127.0.0.1:${closedPort}`));
    const error = await rejection(client.checkVerification(TO, '123456'));
    expect(error.message).toMatch(/could not be reached/);
    expect(error.message).not.toContain('secret-auth-token');
  });
});

describe('unconfigured provider', () => {
  it('refuses both operations with an invalid-operation error', async () => {
    const provider = createSmsVerificationProvider(null);
    expect(provider).toBeInstanceOf(UnconfiguredSmsProvider);
    expect((await rejection(provider.startVerification(TO))).message).toMatch(/not configured/);
    expect((await rejection(provider.checkVerification(TO, '123456'))).message).toMatch(/not configured/);
  });
});

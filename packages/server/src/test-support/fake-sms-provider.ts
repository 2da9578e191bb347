import { randomBytes, randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemClock, type Clock } from '../kernel/clock.js';
import { ANY_COUNTRY } from '../sms/phone-number.js';
import type { SmsConfig } from '../sms/sms-config.js';

/** One SMS the fake "delivered". */
export interface FakeSms {
  readonly to: string;
  readonly code: string;
  readonly sid: string;
  readonly at: number;
}

export interface FakeSmsProviderOptions {
  readonly accountId?: string;
  readonly authToken?: string;
  readonly verifyServiceId?: string;
  /** Expiry of a verification is measured on this clock (Twilio: 10 minutes). */
  readonly clock?: Clock;
  /** Code generator. @default six random digits */
  readonly codes?: () => string;
}

interface Verification {
  sid: string;
  code: string;
  expiresAt: number;
  createdAt: number;
  wrongChecks: number;
}

const TEN_MINUTES_MS = 10 * 60_000;
/** Twilio Verify allows five check attempts per verification (error 60202 after that). */
const MAX_CHECKS = 5;

/**
 * A loopback HTTP server speaking the Twilio Verify v2 wire protocol (docs/reference/email-and-sms.md):
 * `POST /v2/Services/{sid}/Verifications` and `POST /v2/Services/{sid}/VerificationCheck`, form bodies,
 * HTTP Basic, Twilio's JSON shapes and error JSON `{code, message, more_info, status}`. Tests read what
 * was "texted" through {@link lastCode} and {@link sent}.
 */
export class FakeSmsProvider {
  readonly accountId: string;
  readonly authToken: string;
  readonly verifyServiceId: string;
  /** Every SMS sent, oldest first. */
  readonly sent: FakeSms[] = [];
  /** Every request received (path and form), for assertions on the wire format. */
  readonly requests: { path: string; authorization: string | undefined; form: URLSearchParams }[] = [];
  readonly #clock: Clock;
  readonly #codes: () => string;
  readonly #pending = new Map<string, Verification>();
  readonly #failures: { status: number; body: unknown }[] = [];
  readonly #server: Server;
  #baseUrl = '';

  private constructor(options: FakeSmsProviderOptions) {
    this.accountId = options.accountId ?? `AC${randomBytes(16).toString('hex')}`;
    this.authToken = options.authToken ?? randomBytes(16).toString('hex');
    this.verifyServiceId = options.verifyServiceId ?? `VA${randomBytes(16).toString('hex')}`;
    this.#clock = options.clock ?? systemClock;
    this.#codes = options.codes ?? (() => String(randomInt(0, 1_000_000)).padStart(6, '0'));
    this.#server = createServer((req, res) => void this.#handle(req, res));
  }

  /** Starts a fake on 127.0.0.1 with a random port. */
  static async start(options: FakeSmsProviderOptions = {}): Promise<FakeSmsProvider> {
    const fake = new FakeSmsProvider(options);
    await new Promise<void>((resolve) => fake.#server.listen(0, '127.0.0.1', resolve));
    const { port } = fake.#server.address() as AddressInfo;
    fake.#baseUrl = `http://127.0.0.1:${port}`;
    return fake;
  }

  /** The base URL to put in SVC_SMS_API_BASE_URL. */
  get baseUrl(): string {
    return this.#baseUrl;
  }

  /** A complete SmsConfig pointing at this fake. */
  config(defaultRegion: SmsConfig['defaultRegion'] = 'US'): SmsConfig {
    return {
      accountId: this.accountId,
      authToken: this.authToken,
      verifyServiceId: this.verifyServiceId,
      defaultRegion,
      apiBaseUrl: this.#baseUrl,
      countries: ANY_COUNTRY,
    };
  }

  /** The code most recently texted to an E.164 number, if any. */
  lastCode(to: string): string | undefined {
    return this.sent.filter((s) => s.to === to).at(-1)?.code;
  }

  /** Answers the next request with this status and JSON body instead of handling it. */
  failNext(
    status: number,
    body: unknown = twilioError(status, 20500, 'An internal server error has occurred'),
  ): void {
    this.#failures.push({ status, body });
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    this.requests.push({ path, authorization: req.headers.authorization, form });
    const failure = this.#failures.shift();
    if (failure !== undefined) return send(res, failure.status, failure.body);
    if (!this.#authorized(req.headers.authorization)) {
      return send(res, 401, twilioError(401, 20003, 'Authenticate'));
    }
    const match = /^\/v2\/Services\/([^/]+)\/(Verifications|VerificationCheck)$/.exec(path);
    if (
      req.method !== 'POST' ||
      match === null ||
      decodeURIComponent(match[1] ?? '') !== this.verifyServiceId
    ) {
      return send(res, 404, twilioError(404, 20404, `The requested resource ${path} was not found`));
    }
    if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
      return send(res, 400, twilioError(400, 60200, 'Invalid parameter'));
    }
    return match[2] === 'Verifications' ? this.#start(res, path, form) : this.#check(res, path, form);
  }

  #authorized(header: string | undefined): boolean {
    const expected = `Basic ${Buffer.from(`${this.accountId}:${this.authToken}`).toString('base64')}`;
    return header === expected;
  }

  #start(res: ServerResponse, path: string, form: URLSearchParams): void {
    const to = form.get('To') ?? '';
    if (!/^\+[1-9]\d{6,14}$/.test(to))
      return send(res, 400, twilioError(400, 60200, 'Invalid parameter `To`'));
    if (form.get('Channel') !== 'sms') {
      return send(res, 400, twilioError(400, 60200, 'Invalid parameter `Channel`'));
    }
    const now = this.#clock.now();
    let verification = this.#live(to, now);
    // Like Twilio, a resend within the lifetime reuses the pending verification and its code.
    if (verification === undefined) {
      verification = {
        sid: `VE${randomBytes(16).toString('hex')}`,
        code: this.#codes(),
        createdAt: now,
        expiresAt: now + TEN_MINUTES_MS,
        wrongChecks: 0,
      };
      this.#pending.set(to, verification);
    }
    this.sent.push({ to, code: verification.code, sid: verification.sid, at: now });
    send(res, 201, this.#resource(path, to, verification, 'pending', now));
  }

  #check(res: ServerResponse, path: string, form: URLSearchParams): void {
    const to = form.get('To') ?? '';
    const code = form.get('Code') ?? '';
    if (to === '' || code === '') return send(res, 400, twilioError(400, 60200, 'Invalid parameter'));
    const now = this.#clock.now();
    const verification = this.#live(to, now);
    if (verification === undefined) {
      return send(res, 404, twilioError(404, 20404, `The requested resource ${path} was not found`));
    }
    if (verification.wrongChecks >= MAX_CHECKS) {
      return send(res, 429, twilioError(429, 60202, 'Max check attempts reached'));
    }
    if (code !== verification.code) {
      verification.wrongChecks += 1;
      return send(res, 200, this.#resource(path, to, verification, 'pending', now));
    }
    // Approved verifications are gone: a replay gets Twilio's 404.
    this.#pending.delete(to);
    send(res, 200, this.#resource(path, to, verification, 'approved', now));
  }

  #live(to: string, now: number): Verification | undefined {
    const verification = this.#pending.get(to);
    if (verification !== undefined && verification.expiresAt <= now) {
      this.#pending.delete(to);
      return undefined;
    }
    return verification;
  }

  #resource(path: string, to: string, v: Verification, status: string, now: number): Record<string, unknown> {
    return {
      sid: v.sid,
      service_sid: this.verifyServiceId,
      account_sid: this.accountId,
      to,
      channel: 'sms',
      status,
      valid: status === 'approved',
      amount: null,
      payee: null,
      date_created: new Date(v.createdAt).toISOString(),
      date_updated: new Date(now).toISOString(),
      url: `https://verify.twilio.com${path.replace(/VerificationCheck$/, 'Verifications')}/${v.sid}`,
    };
  }
}

function twilioError(status: number, code: number, message: string): Record<string, unknown> {
  return { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

import { SvcInvalidOperationError } from '../kernel/errors.js';
import type { SmsConfig } from './sms-config.js';

/** What the client needs of the configuration: the account and where the API is. */
type ProviderAccount = Pick<SmsConfig, 'accountId' | 'authToken' | 'verifyServiceId' | 'apiBaseUrl'>;

/** Result of sending a code: the provider's verification id and its status (`pending` once sent). */
export interface SmsVerificationStarted {
  readonly sid: string;
  readonly status: string;
}

/**
 * Result of checking a code. `approved` is true only when the provider says `approved`; a wrong code is
 * `pending`, an expired, already used or unknown verification is `expired`.
 */
export interface SmsVerificationChecked {
  readonly approved: boolean;
  readonly status: string;
}

/**
 * Sends and checks SMS one-time codes; the provider generates and holds the code, Svc never sees it
 * until the user types it. Failures of the provider throw {@link SmsProviderError}.
 */
export interface SmsVerificationProvider {
  /** Sends a code by SMS to an E.164 number. */
  startVerification(e164: string): Promise<SmsVerificationStarted>;
  /** Checks the code the user typed for that number. */
  checkVerification(e164: string, code: string): Promise<SmsVerificationChecked>;
}

/**
 * A provider failure (bad credentials, rejected number, rate limit, outage, timeout). It is the
 * invalid-operation error docs/reference/email-and-sms.md "SMS provider" asks for ("challenge failures raise an
 * invalid-operation error"); the message is safe to show (never the auth token, the code or the number),
 * and the provider's HTTP status and error code are kept for logs and audit data.
 */
export class SmsProviderError extends SvcInvalidOperationError {
  readonly providerStatus: number | null;
  readonly providerCode: number | null;

  constructor(message: string, providerStatus: number | null = null, providerCode: number | null = null) {
    super(message);
    this.providerStatus = providerStatus;
    this.providerCode = providerCode;
  }
}

export interface TwilioVerifyClientOptions {
  /** Abort a provider call after this long. @default 10000 */
  readonly timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * The Twilio Verify v2 client of docs/reference/email-and-sms.md "SMS provider": `POST /v2/Services/{sid}/Verifications` (To, Channel=sms)
 * and `POST /v2/Services/{sid}/VerificationCheck` (To, Code), form-encoded, HTTP Basic with the account
 * id and auth token, against SVC_SMS_API_BASE_URL.
 */
export class TwilioVerifyClient implements SmsVerificationProvider {
  readonly #config: ProviderAccount;
  readonly #timeoutMs: number;

  constructor(config: ProviderAccount, options: TwilioVerifyClientOptions = {}) {
    this.#config = config;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  async startVerification(e164: string): Promise<SmsVerificationStarted> {
    const response = await this.#post('Verifications', { To: e164, Channel: 'sms' });
    if (!response.ok) throw providerError(response.status, await errorCode(response), 'send');
    const body = await verificationBody(response);
    return { sid: body.sid, status: body.status };
  }

  async checkVerification(e164: string, code: string): Promise<SmsVerificationChecked> {
    const response = await this.#post('VerificationCheck', { To: e164, Code: code });
    // Twilio answers 404 (error 20404) when no pending verification exists for the number: it expired,
    // was approved already, or was never started. For the caller that is a code that no longer works.
    if (response.status === 404) {
      await response.body?.cancel();
      return { approved: false, status: 'expired' };
    }
    if (!response.ok) throw providerError(response.status, await errorCode(response), 'check');
    const body = await verificationBody(response);
    // `valid` is legacy in Twilio's documentation; `status` is authoritative.
    return { approved: body.status === 'approved', status: body.status };
  }

  async #post(resource: string, form: Record<string, string>): Promise<Response> {
    const { apiBaseUrl, verifyServiceId, accountId, authToken } = this.#config;
    const url = `${apiBaseUrl}/v2/Services/${encodeURIComponent(verifyServiceId)}/${resource}`;
    const basic = Buffer.from(`${accountId}:${authToken}`, 'utf8').toString('base64');
    try {
      return await fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Basic ${basic}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams(form).toString(),
        // A redirect could carry the credentials somewhere else; the API never redirects.
        redirect: 'error',
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
    } catch (error) {
      // Only the kind of failure goes into the message: fetch errors can quote the URL, never the
      // credentials, but there is no reason to echo anything of the request.
      const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
      throw new SmsProviderError(
        timedOut
          ? 'The SMS verification provider did not answer in time; try again later.'
          : 'The SMS verification provider could not be reached; try again later.',
      );
    }
  }
}

/**
 * The provider used when SVC_SMS_* is not set: every call is the invalid-operation error of docs/reference/email-and-sms.md "SMS provider"
 * 4 ("requires complete provider configuration").
 */
export class UnconfiguredSmsProvider implements SmsVerificationProvider {
  startVerification(): Promise<SmsVerificationStarted> {
    return Promise.reject(notConfigured());
  }

  checkVerification(): Promise<SmsVerificationChecked> {
    return Promise.reject(notConfigured());
  }
}

function notConfigured(): SmsProviderError {
  return new SmsProviderError(
    'Phone sign-in is not available: the SMS verification provider is not configured.',
  );
}

/** The provider for a resolved configuration: the HTTP client, or the refusing one when it is off. */
export function createSmsVerificationProvider(
  config: SmsConfig | null,
  options: TwilioVerifyClientOptions = {},
): SmsVerificationProvider {
  return config === null ? new UnconfiguredSmsProvider() : new TwilioVerifyClient(config, options);
}

async function verificationBody(response: Response): Promise<{ sid: string; status: string }> {
  const body: unknown = await response.json().catch(() => null);
  if (
    typeof body === 'object' &&
    body !== null &&
    'sid' in body &&
    typeof body.sid === 'string' &&
    'status' in body &&
    typeof body.status === 'string'
  ) {
    return { sid: body.sid, status: body.status };
  }
  throw new SmsProviderError('The SMS verification provider sent an unexpected response.', response.status);
}

/** Twilio's error JSON is `{code, message, more_info, status}`; only the numeric code is kept. */
async function errorCode(response: Response): Promise<number | null> {
  const body: unknown = await response.json().catch(() => null);
  if (typeof body === 'object' && body !== null && 'code' in body && typeof body.code === 'number') {
    return body.code;
  }
  return null;
}

/**
 * Maps a provider error to a message a user or operator can act on. The provider's own message is not
 * quoted: it can contain the phone number, and its wording is not ours to show.
 */
function providerError(status: number, code: number | null, action: 'send' | 'check'): SmsProviderError {
  const message = (() => {
    if (status === 401 || status === 403 || code === 20003) {
      return 'The SMS verification provider rejected the configured credentials.';
    }
    if (code === 60200 || code === 60205 || code === 21211 || code === 21614) {
      return 'This phone number cannot receive SMS verification codes.';
    }
    if (code === 60203) return 'Too many codes were sent to this phone number; try again later.';
    if (code === 60202) return 'Too many incorrect codes were entered; request a new code.';
    if (status === 404) return 'The SMS verification service was not found; check SVC_SMS_VERIFY_SERVICE_ID.';
    if (status === 429) return 'The SMS verification provider is rate limiting requests; try again later.';
    const what = action === 'send' ? 'send the code' : 'check the code';
    return `The SMS verification provider could not ${what} (HTTP ${status}${code === null ? '' : `, error ${code}`}).`;
  })();
  return new SmsProviderError(message, status, code);
}

import {
  AuthorizationResponseError,
  ClientError,
  ResponseBodyError,
  WWWAuthenticateChallengeError,
} from 'openid-client';
import { SvcError } from '../../kernel/errors.js';

/**
 * Why a sign-in through a provider failed, as the callers (the sign-in method, the /oidc routes) turn it
 * into a 4xx answer or an error redirect:
 *
 * - `invalid_redirect_uri`: the redirect URI is not one of the connection's allowed callback URIs.
 * - `invalid_state`: the callback's `state` is missing or is not the one this sign-in sent.
 * - `invalid_callback`: the callback carries no code, or names another issuer (`iss`, RFC 9207).
 * - `provider_error`: the provider answered an OAuth error (`access_denied`, `invalid_grant` for a code
 *   redeemed twice…); `providerError` and `providerErrorDescription` carry its words.
 * - `invalid_id_token`: the ID token failed validation (signature, `iss`, `aud`, `nonce`, expiry, tenant).
 * - `invalid_provider_response`: another answer of the provider was malformed (not JSON, no access token,
 *   a UserInfo `sub` that is not the ID token's, a profile without an id).
 * - `provider_unavailable`: the provider could not be reached, timed out or answered 5xx.
 * - `provider_configuration`: the connection cannot work as configured (a plain-http endpoint, a
 *   discovery document without a token endpoint or naming another issuer, an Apple key that does not sign).
 */
export type OidcRelyingPartyErrorCode =
  | 'invalid_redirect_uri'
  | 'invalid_state'
  | 'invalid_callback'
  | 'provider_error'
  | 'invalid_id_token'
  | 'invalid_provider_response'
  | 'provider_unavailable'
  | 'provider_configuration';

const STATUS: Readonly<Record<OidcRelyingPartyErrorCode, number>> = {
  invalid_redirect_uri: 400,
  invalid_state: 400,
  invalid_callback: 400,
  provider_error: 400,
  invalid_id_token: 400,
  invalid_provider_response: 502,
  provider_unavailable: 502,
  provider_configuration: 500,
};

/**
 * A failed start or completion of a sign-in through a provider. The message is safe to show and to log:
 * it never holds a code, a token, a secret or a claim value. The library's error is kept as `detail`
 * (its code and message, which hold no values either), never as `cause`, whose payload may hold the
 * provider's answer with its tokens.
 */
export class OidcRelyingPartyError extends SvcError {
  declare readonly code: OidcRelyingPartyErrorCode;
  /** The provider's `error` (for `provider_error`). */
  readonly providerError: string | null;
  /** The provider's `error_description`, control characters removed and cut at 500 characters. */
  readonly providerErrorDescription: string | null;
  /** What the library reported, for logs: its error code and message. */
  readonly detail: string | null;

  constructor(
    code: OidcRelyingPartyErrorCode,
    message: string,
    options: {
      providerError?: string | null;
      providerErrorDescription?: string | null;
      detail?: string;
    } = {},
  ) {
    super(code, message, { status: STATUS[code], expose: true });
    this.providerError = cleanText(options.providerError, 100);
    this.providerErrorDescription = cleanText(options.providerErrorDescription, 500);
    this.detail = options.detail ?? null;
  }
}

function cleanText(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return null;
  const clean = value.replace(/[\p{Cc}]/gu, ' ').trim();
  return clean === '' ? null : clean.slice(0, max);
}

/** The provider's OAuth error as the error of a sign-in. */
export function providerError(what: string, error: unknown, description: unknown): OidcRelyingPartyError {
  const code = cleanText(error, 100) ?? 'error';
  return new OidcRelyingPartyError('provider_error', `The provider refused ${what} (${code}).`, {
    providerError: code,
    providerErrorDescription: typeof description === 'string' ? description : null,
  });
}

const ID_TOKEN_CODES = new Set([
  'OAUTH_JWT_CLAIM_COMPARISON_FAILED',
  'OAUTH_JWT_TIMESTAMP_CHECK_FAILED',
  'OAUTH_KEY_SELECTION_FAILED',
]);
const NETWORK_CODES = new Set(['OAUTH_TIMEOUT', 'OAUTH_ABORT']);
const CONFIGURATION_CODES = new Set([
  'OAUTH_HTTP_REQUEST_FORBIDDEN',
  'OAUTH_REQUEST_PROTOCOL_FORBIDDEN',
  'OAUTH_MISSING_SERVER_METADATA',
  'OAUTH_INVALID_SERVER_METADATA',
]);

interface CodedError {
  readonly code?: unknown;
  readonly message: string;
  readonly cause?: unknown;
}

/**
 * Maps what the library (or fetch under it) threw during `what` ("the discovery", "the token request"…)
 * to an {@link OidcRelyingPartyError}. An error of our own raised inside a fetch comes back wrapped by the
 * library and is unwrapped.
 */
export function fromLibraryError(what: string, error: unknown): OidcRelyingPartyError {
  if (error instanceof OidcRelyingPartyError) return error;
  const own = findOwnCause(error);
  if (own !== undefined) return own;

  if (error instanceof AuthorizationResponseError) {
    return providerError(what, error.error, error.error_description);
  }
  if (error instanceof ResponseBodyError) {
    if (error.status >= 500) return unavailable(what, error);
    return providerError(what, error.error, error.error_description);
  }
  if (error instanceof WWWAuthenticateChallengeError) {
    const challenge = error.cause[0];
    if (error.status >= 500) return unavailable(what, error);
    return providerError(
      what,
      challenge?.parameters.error ?? 'invalid_token',
      challenge?.parameters.error_description,
    );
  }
  const coded = error as CodedError;
  const code = typeof coded.code === 'string' ? coded.code : '';
  const detail = describe(error);
  if (error instanceof TypeError && !code.startsWith('ERR_INVALID_ARG')) {
    // fetch's own failures: refused, reset, DNS, TLS.
    return unavailable(what, error);
  }
  if (isTimeout(error) || NETWORK_CODES.has(code)) return unavailable(what, error);
  if (code === 'OAUTH_RESPONSE_IS_NOT_CONFORM') {
    const status = statusOf(coded.cause) ?? statusOf(coded);
    if (status !== undefined && status >= 500) return unavailable(what, error);
    return new OidcRelyingPartyError(
      'invalid_provider_response',
      `The provider answered ${what} with an unexpected status${status === undefined ? '' : ` (${status})`}.`,
      { detail },
    );
  }
  if (
    ID_TOKEN_CODES.has(code) ||
    (error instanceof ClientError && /JWT|ID Token|id_token/.test(innerMessage(error)))
  ) {
    return new OidcRelyingPartyError('invalid_id_token', `The provider's ID token is not valid (${what}).`, {
      detail,
    });
  }
  if (CONFIGURATION_CODES.has(code)) {
    return new OidcRelyingPartyError('provider_configuration', `The connection cannot be used for ${what}.`, {
      detail,
    });
  }
  if (code === 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED') {
    return new OidcRelyingPartyError(
      'invalid_provider_response',
      `The provider's answer to ${what} does not match what was expected.`,
      { detail },
    );
  }
  return new OidcRelyingPartyError(
    'invalid_provider_response',
    `The provider's answer to ${what} is not valid.`,
    {
      detail,
    },
  );
}

/** `provider_unavailable` for `what`. */
export function unavailable(what: string, error?: unknown): OidcRelyingPartyError {
  return new OidcRelyingPartyError('provider_unavailable', `The provider could not be reached for ${what}.`, {
    ...(error === undefined ? {} : { detail: describe(error) }),
  });
}

function findOwnCause(error: unknown): OidcRelyingPartyError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    if (current instanceof OidcRelyingPartyError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function isTimeout(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const name = (current as { name?: unknown }).name;
    if (name === 'TimeoutError' || name === 'AbortError') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

function statusOf(value: unknown): number | undefined {
  const status = (value as { status?: unknown } | null | undefined)?.status;
  return typeof status === 'number' ? status : undefined;
}

/** The library's message and that of the error it wraps (openid-client wraps oauth4webapi's). */
function innerMessage(error: CodedError): string {
  const inner = error.cause as { message?: unknown } | undefined;
  return `${error.message} ${typeof inner?.message === 'string' ? inner.message : ''}`;
}

/** The error's code and message, and those of the error it wraps: no values, no payloads. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error).slice(0, 200);
  const coded = error as CodedError;
  const code = typeof coded.code === 'string' ? `${coded.code}: ` : '';
  const inner = coded.cause instanceof Error ? ` (${coded.cause.message})` : '';
  return `${code}${error.message}${inner}`.slice(0, 500);
}

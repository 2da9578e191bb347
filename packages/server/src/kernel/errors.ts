/**
 * One base class for every error Svc raises on purpose. `expose` says whether `message` may be shown to
 * the caller; an unexposed error is answered with a generic message and logged once.
 */
export class SvcError extends Error {
  readonly code: string;
  readonly status: number;
  readonly expose: boolean;

  constructor(
    code: string,
    message: string,
    options: { status?: number; expose?: boolean; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.status = options.status ?? 400;
    this.expose = options.expose ?? this.status < 500;
  }
}

/** Input that breaks a rule of the domain (duplicate email, unknown organization…). */
export class SvcValidationError extends SvcError {
  readonly details: readonly ValidationIssue[];

  constructor(message: string, details: readonly ValidationIssue[] = []) {
    super('invalid_request', message, { status: 400 });
    this.details = details;
  }
}

export interface ValidationIssue {
  readonly path: string;
  readonly message: string;
}

/** A resource that the caller named does not exist. */
export class SvcNotFoundError extends SvcError {
  constructor(message: string) {
    super('not_found', message, { status: 404 });
  }
}

/** A unique value (slug, email, clientId) that is already taken. */
export class SvcConflictError extends SvcError {
  constructor(message: string) {
    super('conflict', message, { status: 409 });
  }
}

/** Public auth failure of the in-process API (`error`, `status`, `message`), per docs/reference/errors.md "Shapes". */
export class SvcPublicAuthError extends SvcError {
  get error(): string {
    return this.code;
  }

  constructor(error: string, message: string, status = 400, options: { cause?: unknown } = {}) {
    super(error, message, { status, expose: true, ...options });
  }
}

/**
 * A refused attempt: too many failed guesses of a secret, or a send asked for too soon. Answered 429 with
 * `Retry-After`; `extra` carries fields a surface adds to its JSON body (e.g. `nextAllowedSendAt`).
 */
export class SvcTooManyAttemptsError extends SvcPublicAuthError {
  readonly retryAfterSeconds: number;
  readonly extra: Readonly<Record<string, unknown>>;

  constructor(
    message: string,
    retryAfterMs: number,
    options: { error?: string; extra?: Readonly<Record<string, unknown>> } = {},
  ) {
    super(options.error ?? 'too_many_attempts', message, 429);
    this.retryAfterSeconds = retryAfterSeconds(retryAfterMs);
    this.extra = options.extra ?? {};
  }
}

/**
 * A token-only sign-in operation (ExchangeCodeAsync, `POST /token/exchange`) whose sign-in passed its
 * first factor and must pass a second before tokens are issued: 403 `mfa_required`, carrying the MFA
 * state of an SvcLoginResult (`mfaToken`, `requiresMfaEnrollment`, `mfaMethods`) so that the app goes on
 * at VerifyMfaChallengeAsync (`POST /mfa/challenge/verify`), as after any direct sign-in.
 */
export class SvcMfaRequiredError extends SvcPublicAuthError {
  readonly mfaToken: string;
  readonly requiresMfaEnrollment: boolean;
  readonly mfaMethods: readonly string[];

  constructor(state: { mfaToken: string; requiresMfaEnrollment: boolean; mfaMethods: readonly string[] }) {
    super(
      'mfa_required',
      'This sign-in needs a second factor: verify the MFA token before tokens are issued.',
      403,
    );
    this.mfaToken = state.mfaToken;
    this.requiresMfaEnrollment = state.requiresMfaEnrollment;
    this.mfaMethods = state.mfaMethods;
  }

  /** The fields a JSON body carries beside `error` and `message`. */
  get extra(): Readonly<Record<string, unknown>> {
    return {
      mfaToken: this.mfaToken,
      requiresMfaEnrollment: this.requiresMfaEnrollment,
      mfaMethods: this.mfaMethods,
    };
  }
}

/** How long a caller is asked to wait after a 503: a database restart or failover takes a few seconds. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 2;

/**
 * The database (or another dependency every request needs) is not answering: refused, reset, shut down
 * or past its timeout. Answered 503 `temporarily_unavailable` with `Retry-After` on every surface; the
 * cause is logged, never shown.
 */
export class SvcUnavailableError extends SvcPublicAuthError {
  readonly retryAfterSeconds = UNAVAILABLE_RETRY_AFTER_SECONDS;

  constructor(cause: unknown) {
    super('temporarily_unavailable', 'The service is temporarily unavailable. Try again in a moment.', 503, {
      cause,
    });
  }

  /** The driver's words for the outage, for logs ("57P01 terminating connection …", "connect ECONNREFUSED …"). */
  get detail(): string {
    const cause = this.cause as { code?: unknown; message?: unknown } | undefined;
    const code = typeof cause?.code === 'string' ? `${cause.code} ` : '';
    return `${code}${typeof cause?.message === 'string' ? cause.message : String(cause)}`;
  }
}

/** What a page or view shows of a refused attempt: its words and the wait (Retry-After). */
export interface RefusedAttempt {
  readonly message: string;
  readonly retryAfterSeconds: number;
  /** A refused send: when one may be asked for again (epoch ms), for the views that show it. */
  readonly resendAvailableAt?: number;
}

/** A refused attempt's wait as `Retry-After`: whole seconds, at least one. */
export function retryAfterSeconds(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 1000));
}

/** In words, how long until a refused attempt may be tried again ("in 2 minutes"). */
export function retryAfterPhrase(retryAfterMs: number): string {
  const seconds = retryAfterSeconds(retryAfterMs);
  if (seconds < 60) return `in ${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `in ${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** A confidential client presented no or wrong credentials. */
export class SvcClientAuthenticationError extends SvcError {
  constructor(message = 'Client authentication failed.') {
    super('invalid_client', message, { status: 401 });
  }
}

/** An operation that cannot run in the current state (for example 'The selected organization requires MFA.'). */
export class SvcInvalidOperationError extends SvcError {
  constructor(message: string) {
    super('invalid_operation', message, { status: 400 });
  }
}

/** Configuration that cannot work; the message says what to fix. */
export class SvcConfigError extends SvcError {
  constructor(message: string) {
    super('invalid_configuration', message, { status: 500, expose: true });
  }
}

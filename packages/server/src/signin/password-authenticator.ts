import type { UserRecord, UserRepository } from '../directory/repository.js';
import { emailLookupKey, emailMatchValue } from '../directory/email-key.js';
import type { AuditLog } from '../audit/audit-log.js';
import { retryAfterPhrase, SvcPublicAuthError, SvcTooManyAttemptsError } from '../kernel/errors.js';
import type { Ids } from '../kernel/ids.js';
import type { FailureRules } from '../ratelimit/failure-rules.js';
import type { FailureSubject, FailureThrottle } from '../ratelimit/failure-throttle.js';
import { verifyPassword, type HashPassword } from '../directory/password-hasher.js';

export interface PasswordAuthenticatorDeps {
  readonly users: Pick<UserRepository, 'findByEmailKey'>;
  readonly ids: Ids;
  readonly throttle: Pick<FailureThrottle, 'begin' | 'peek'>;
  readonly rules: Pick<FailureRules, 'passwordAccountIp' | 'passwordAccount' | 'passwordIp'>;
  readonly audit: AuditLog;
  /** Hashes the dummy password at the configured cost, so that its verification costs what a real one does. */
  readonly hashPassword: HashPassword;
}

/** Where a password check comes from: what the limits count and the audit trail names. */
export interface PasswordCheckContext {
  /** The route or in-process operation (`/svc/auth/password/login`, `loginWithPasswordAsync`…). */
  readonly operation: string;
  /** The caller's address; without one (an in-process call) only the per-account limit applies. */
  readonly ipAddress?: string | null | undefined;
  /** The client the sign-in is for, when known. */
  readonly clientId?: string | null | undefined;
}

/** The outcome of checking an email and password: the user, or a failure that says nothing more. */
export type PasswordAuthentication =
  { readonly ok: true; readonly user: UserRecord } | { readonly ok: false };

/**
 * The one answer to every failed password sign-in (unknown email, wrong password, no password set,
 * deactivated user), so that the response never tells which it was.
 */
export function invalidCredentialsError(): SvcPublicAuthError {
  return new SvcPublicAuthError('invalid_credentials', 'The email or password is incorrect.', 401);
}

/**
 * Checks an email and password with argon2id, within the limits on guessing (docs/reference/limits.md "Secret
 * checks"): failures are counted per account and address pair, per account and per address, by the
 * normalized email whether or not an account has it, so an unknown email is refused at the same count
 * with the same answer. A refused check throws SvcTooManyAttemptsError before any hash runs; otherwise
 * the check is counted as a failure before it runs, and a success takes that back and resets the pair.
 *
 * Every check that runs spends one hash verification: when there is no such user, or the user has no
 * password, a dummy hash is verified instead, so that the time taken does not reveal whether an account
 * exists. A deactivated user fails after the verification, generically.
 */
export class PasswordAuthenticator {
  readonly #deps: PasswordAuthenticatorDeps;
  #dummyHash: Promise<string> | undefined;

  constructor(deps: PasswordAuthenticatorDeps) {
    this.#deps = deps;
  }

  async authenticate(
    email: string,
    password: string,
    context: PasswordCheckContext,
  ): Promise<PasswordAuthentication> {
    // An address the key refuses (not ASCII before the @) names no account: it fails as an unknown one
    // does, counted under a value of its own that no key equals.
    const emailKey = emailLookupKey(email);
    const subjects = this.#subjects(emailMatchValue(email), context.ipAddress ?? undefined);
    const check = await this.#deps.throttle.begin(subjects);
    if (!check.allowed) throw await this.#refuse(emailKey, subjects, check.retryAfterMs, context);
    const user = emailKey === undefined ? undefined : await this.#deps.users.findByEmailKey(emailKey);
    const passwordHash = user?.passwordHash ?? (await this.#dummy());
    const matches = await verifyPassword(passwordHash, password);
    if (user === undefined || user.passwordHash === null || !user.active || !matches) return { ok: false };
    await check.attempt.succeeded([this.#deps.rules.passwordAccountIp]);
    return { ok: true, user };
  }

  #subjects(account: string, ipAddress: string | undefined): FailureSubject[] {
    const { passwordAccountIp, passwordAccount, passwordIp } = this.#deps.rules;
    const perAccount: FailureSubject = { rule: passwordAccount, value: account };
    if (ipAddress === undefined) return [perAccount];
    // An IP address holds no space, so the pair's value cannot be read as another pair's.
    return [
      { rule: passwordAccountIp, value: `${ipAddress} ${account}` },
      perAccount,
      { rule: passwordIp, value: ipAddress },
    ];
  }

  /** Audits a refused check (which limits hold it, and for how long) and returns its error. */
  async #refuse(
    emailKey: string | undefined,
    subjects: readonly FailureSubject[],
    retryAfterMs: number,
    context: PasswordCheckContext,
  ): Promise<SvcTooManyAttemptsError> {
    const [user, locks] = await Promise.all([
      emailKey === undefined ? undefined : this.#deps.users.findByEmailKey(emailKey),
      Promise.all(subjects.map((subject) => this.#deps.throttle.peek([subject]))),
    ]);
    const error = new SvcTooManyAttemptsError(
      `Too many failed sign-in attempts. Try again ${retryAfterPhrase(retryAfterMs)}.`,
      retryAfterMs,
    );
    await this.#deps.audit.record({
      kind: 'auth.password.throttled',
      actorType: 'user',
      ...(user === undefined ? {} : { actorId: user.id, userId: user.id }),
      ...(context.clientId == null ? {} : { clientId: context.clientId }),
      ...(context.ipAddress == null ? {} : { ipAddress: context.ipAddress }),
      data: {
        route: context.operation,
        rules: subjects.filter((_, i) => locks[i] !== undefined).map((s) => s.rule.name),
        retryAfterSeconds: error.retryAfterSeconds,
      },
    });
    return error;
  }

  /** A hash of a random secret with the real parameters, made once per process on first use. */
  #dummy(): Promise<string> {
    this.#dummyHash ??= this.#deps.hashPassword(this.#deps.ids.secret());
    return this.#dummyHash;
  }
}

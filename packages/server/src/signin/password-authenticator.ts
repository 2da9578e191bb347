import type { UserRecord, UserRepository } from '../admin/repository.js';
import { emailLookupKey } from '../admin/email-key.js';
import { SvcPublicAuthError } from '../kernel/errors.js';
import type { Ids } from '../kernel/ids.js';
import { hashPassword, verifyPassword } from './password-hasher.js';

export interface PasswordAuthenticatorDeps {
  readonly users: Pick<UserRepository, 'findByEmailKey'>;
  readonly ids: Ids;
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
 * Checks an email and password with argon2id. Every path spends one hash verification: when there is no
 * such user, or the user has no password, a dummy hash is verified instead, so that the time taken does
 * not reveal whether an account exists. A deactivated user fails after the verification, generically.
 */
export class PasswordAuthenticator {
  readonly #deps: PasswordAuthenticatorDeps;
  #dummyHash: Promise<string> | undefined;

  constructor(deps: PasswordAuthenticatorDeps) {
    this.#deps = deps;
  }

  async authenticate(email: string, password: string): Promise<PasswordAuthentication> {
    const user = await this.#deps.users.findByEmailKey(emailLookupKey(email));
    const passwordHash = user?.passwordHash ?? (await this.#dummy());
    const matches = await verifyPassword(passwordHash, password);
    if (user === undefined || user.passwordHash === null || !user.active || !matches) return { ok: false };
    return { ok: true, user };
  }

  /** A hash of a random secret with the real parameters, made once per process on first use. */
  #dummy(): Promise<string> {
    this.#dummyHash ??= hashPassword(this.#deps.ids.secret());
    return this.#dummyHash;
  }
}

import type { UserRecord } from '../directory/repository.js';
import { retryAfterPhrase, SvcTooManyAttemptsError } from '../kernel/errors.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import type { RateLimitPolicy } from '../ratelimit/rules.js';

/**
 * The account operations signup needs, provided by the directory (user creation with email
 * normalization, deduplication and argon2id; organization creation with a generated slug; memberships),
 * so that a self-service account is exactly what an operator would create.
 */
export interface SignupAccounts {
  /** Creates a user with a password; a taken email is a 409 SvcConflictError. */
  createUser(input: { displayName: string; email: string; password: string }): Promise<UserRecord>;
  /** Creates an organization named `name` (slug generated) and returns its id. */
  createOrganization(name: string): Promise<string>;
  addMembership(organizationId: string, userId: string, role: string): Promise<void>;
  /**
   * Creates a user without a password whose address or number a code has just proved (so it is stored
   * verified); a taken email or phone number is a 409 SvcConflictError.
   */
  createPasswordlessUser(input: PasswordlessAccountInput): Promise<UserRecord>;
}

/** A passwordless signup's account: an address or a phone number (at least one), proved by a code. */
export interface PasswordlessAccountInput {
  readonly displayName: string;
  readonly email: string | null;
  readonly phoneE164: string | null;
  readonly customFields: Readonly<Record<string, unknown>> | null;
}

export interface SignupInput {
  readonly displayName: string;
  readonly email: string;
  readonly password: string;
  /** docs/reference/sign-in.md "Signup": if set a new organization is created and the user added. */
  readonly organizationName: string | null;
}

/** The per-address limit of password signups (config.rateLimits.signup). */
export interface SignupLimit {
  readonly rateLimiter: Pick<RateLimiter, 'consume'>;
  readonly policy: RateLimitPolicy;
}

/** The role of the user who creates an organization through signup. */
export const SIGNUP_ORGANIZATION_ROLE = 'owner';

/**
 * Self-service signup (docs/reference/sign-in.md "Signup"): creates the user and, with an organization name, a new
 * organization with the user as its owner. It never joins an existing organization: the contract schema
 * rejects a supplied organizationId before this runs. A duplicate email is a 409.
 */
export class SignupService {
  readonly #accounts: SignupAccounts;
  readonly #limit: SignupLimit;

  constructor(accounts: SignupAccounts, limit: SignupLimit) {
    this.#accounts = accounts;
    this.#limit = limit;
  }

  /**
   * A signup with a password, counted per client address first (`rateLimits.signup`): each one costs an
   * argon2id hash and an account, so an address that asks for too many is refused before either.
   */
  async signUp(
    input: SignupInput,
    context: { readonly ipAddress?: string | null | undefined },
  ): Promise<{ user: UserRecord; organizationId: string | null }> {
    const ip = context.ipAddress ?? undefined;
    const decision = await this.#limit.rateLimiter.consume(
      this.#limit.policy,
      ip === undefined ? {} : { ip },
    );
    if (!decision.allowed) {
      throw new SvcTooManyAttemptsError(
        `Too many signups from this address; try again ${retryAfterPhrase(decision.retryAfterMs)}.`,
        decision.retryAfterMs,
      );
    }
    const user = await this.#accounts.createUser({
      displayName: input.displayName,
      email: input.email,
      password: input.password,
    });
    return { user, organizationId: await this.#organizationFor(user, input.organizationName) };
  }

  /**
   * Email and phone OTP signup, after the code was verified: a passwordless account (the proved address
   * or number marked verified) and, with an organization name, a new organization it owns.
   */
  async signUpPasswordless(
    input: PasswordlessAccountInput & { readonly organizationName: string | null },
  ): Promise<{ user: UserRecord; organizationId: string | null }> {
    const user = await this.#accounts.createPasswordlessUser(input);
    return { user, organizationId: await this.#organizationFor(user, input.organizationName) };
  }

  async #organizationFor(user: UserRecord, organizationName: string | null): Promise<string | null> {
    if (organizationName === null) return null;
    const organizationId = await this.#accounts.createOrganization(organizationName);
    await this.#accounts.addMembership(organizationId, user.id, SIGNUP_ORGANIZATION_ROLE);
    return organizationId;
  }
}

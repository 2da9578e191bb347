import type { CreateUserInput, Page, UserListInput } from '@svc/contract';
import { SvcConflictError } from '../kernel/errors.js';
import type { HashPassword } from './password-hasher.js';
import { actorFields, type AdminActor } from '../audit/actor.js';
import type { DirectoryDeps } from './deps.js';
import { asciiUpperCase, emailLookupKey, requireEmailKey } from './email-key.js';
import type { UserRecord, UserSearch } from './repository.js';

/** The 409 of an email address another user has. */
export const DUPLICATE_EMAIL = 'A user with this email address already exists.';
const DUPLICATE_ACCOUNT = 'A user with this email address or phone number already exists.';

/**
 * A search term as the user lists compare it: against email keys with its ASCII letters upper-cased, as
 * keys are (directory/email-key.ts), and as itself against display names and ids.
 */
export function userSearchOf(text: string | undefined): UserSearch | undefined {
  return text === undefined ? undefined : { text, emailKeyPrefix: asciiUpperCase(text) };
}

export interface UserServiceDeps extends DirectoryDeps {
  readonly hashPassword: HashPassword;
}

/** Creates users, finds them by email and marks operators. */
export class UserService {
  readonly #deps: UserServiceDeps;

  constructor(deps: UserServiceDeps) {
    this.#deps = deps;
  }

  /**
   * Creates a user. The email is deduplicated on its lookup key (trim, ASCII upper-case, IDNA A-label
   * domain: directory/email-key.ts), so `Ann@X.io` and ` ann@x.io ` are the same address (409); one that is
   * not ASCII before the @ is a 400. The password, when given, is stored only as an argon2id hash.
   */
  async create(input: CreateUserInput, actor?: AdminActor): Promise<UserRecord> {
    const emailKey = requireEmailKey(input.email);
    // Checked first so that a duplicate costs no password hash; the unique index still decides races.
    if ((await this.#deps.repositories.users.findByEmailKey(emailKey)) !== undefined) {
      throw new SvcConflictError(DUPLICATE_EMAIL);
    }
    const passwordHash = input.password === null ? null : await this.#deps.hashPassword(input.password);
    const user = await this.#insert({
      displayName: input.displayName,
      email: input.email.trim(),
      passwordHash,
      isOperator: false,
    });
    if (user === undefined) throw new SvcConflictError(DUPLICATE_EMAIL);
    await this.#recordCreated(user, actor);
    return user;
  }

  /**
   * A passwordless account whose email or phone number a code has just proved (stored verified), with
   * the signup's custom fields. A taken email or number is a 409.
   */
  async createPasswordless(input: {
    readonly displayName: string;
    readonly email: string | null;
    readonly phoneE164: string | null;
    readonly customFields: Readonly<Record<string, unknown>> | null;
    /** Whether the address is proved; by default it is (a code proved it). A provider may not assert it. */
    readonly emailVerified?: boolean;
  }): Promise<UserRecord> {
    const now = this.#deps.clock.now();
    const email = input.email?.trim() ?? null;
    const user: UserRecord = {
      id: this.#deps.ids.id('usr'),
      displayName: input.displayName,
      email,
      emailKey: email === null ? null : requireEmailKey(email),
      emailVerified: email !== null && input.emailVerified !== false,
      passwordHash: null,
      isOperator: false,
      active: true,
      createdAt: now,
      updatedAt: now,
    };
    const inserted = await this.#deps.repositories.users.insertIfEmailFree(user, {
      phoneE164: input.phoneE164,
      phoneVerified: input.phoneE164 !== null,
      customFields: input.customFields,
    });
    if (!inserted) throw new SvcConflictError(DUPLICATE_ACCOUNT);
    await this.#recordCreated(user, undefined);
    return user;
  }

  /** The user of `email`; none for an address the key refuses (it is never looked up). */
  async findByEmail(email: string): Promise<UserRecord | undefined> {
    const emailKey = emailLookupKey(email);
    return emailKey === undefined ? undefined : this.#deps.repositories.users.findByEmailKey(emailKey);
  }

  get(id: string): Promise<UserRecord | undefined> {
    return this.#deps.repositories.users.findById(id);
  }

  /**
   * Newest first, narrowed by every given filter (see userListQuerySchema); `email` by its lookup key.
   * `nextCursor` is null on the last page.
   */
  list(input: UserListInput): Promise<Page<UserRecord>> {
    const { limit, cursor, query, organizationId, active, email } = input;
    return this.#deps.repositories.users.list({
      limit,
      cursor,
      search: userSearchOf(query),
      organizationId,
      active,
      emailKey: email === undefined ? undefined : requireEmailKey(email),
    });
  }

  /**
   * Marks the user with this email an operator (`svc operator add <email>`), creating a user without
   * a password when there is none; the display name of a new user is the local part of the address.
   * Idempotent: an operator stays an operator and nothing is recorded twice.
   */
  async setOperator(email: string, actor?: AdminActor): Promise<UserRecord> {
    const users = this.#deps.repositories.users;
    // Two attempts: a concurrent creation of the same address makes the insert lose, then the update wins.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const existing = await users.findByEmailKey(requireEmailKey(email));
      if (existing !== undefined) {
        if (existing.isOperator) return existing;
        const updated = (await users.setOperator(existing.id, this.#deps.clock.now())) ?? existing;
        await this.#recordOperatorGranted(updated, actor);
        return updated;
      }
      const trimmed = email.trim();
      const displayName = trimmed.slice(0, trimmed.lastIndexOf('@')) || trimmed;
      const created = await this.#insert({
        displayName,
        email: trimmed,
        passwordHash: null,
        isOperator: true,
      });
      if (created !== undefined) {
        await this.#recordCreated(created, actor);
        await this.#recordOperatorGranted(created, actor);
        return created;
      }
    }
    throw new SvcConflictError('The user changed concurrently; try again.');
  }

  async #insert(
    fields: Pick<UserRecord, 'displayName' | 'passwordHash' | 'isOperator'> & { readonly email: string },
  ): Promise<UserRecord | undefined> {
    const now = this.#deps.clock.now();
    const user: UserRecord = {
      id: this.#deps.ids.id('usr'),
      ...fields,
      emailKey: requireEmailKey(fields.email),
      emailVerified: false,
      active: true,
      createdAt: now,
      updatedAt: now,
    };
    return (await this.#deps.repositories.users.insertIfEmailFree(user)) ? user : undefined;
  }

  async #recordCreated(user: UserRecord, actor: AdminActor | undefined): Promise<void> {
    // No email or name in the data: the event points at the user, whose record holds the personal data.
    await this.#deps.audit.record({
      kind: 'admin.user.created',
      ...actorFields(actor),
      userId: user.id,
      // `passwordSet`, not `hasPassword`: the audit log redacts any key ending in "password".
      data: { passwordSet: user.passwordHash !== null, isOperator: user.isOperator },
    });
  }

  async #recordOperatorGranted(user: UserRecord, actor: AdminActor | undefined): Promise<void> {
    await this.#deps.audit.record({
      kind: 'admin.user.operator_granted',
      ...actorFields(actor),
      userId: user.id,
    });
  }
}

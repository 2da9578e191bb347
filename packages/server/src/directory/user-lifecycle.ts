import type { UpdateUserInput } from '@svc/contract';
import { SvcConflictError, SvcValidationError } from '../kernel/errors.js';
import type { HashPassword } from './password-hasher.js';
import type { AdminActor } from '../audit/actor.js';
import type { DirectoryLifecycleDeps } from './deps.js';
import { requireEmailKey } from './email-key.js';
import { applyRecordUpdate, differences, existingRecord } from './record-lifecycle.js';
import type { UserChanges, UserRecord } from './repository.js';
import { DUPLICATE_EMAIL } from './user-service.js';

/** The 409 of a change that would leave no active operator to sign in to the console. */
function lastOperatorConflict(id: string): SvcConflictError {
  return new SvcConflictError(
    `User '${id}' is the last active operator: make another user an operator first ` +
      "(PATCH /users/{id} with isOperator: true), then remove this one's operator flag or deactivate it.",
  );
}

/** An operator's changes to a user: profile, email and its verification, password, operator flag, deactivation. */
export class UserLifecycle {
  readonly #deps: DirectoryLifecycleDeps & { readonly hashPassword: HashPassword };

  constructor(deps: DirectoryLifecycleDeps & { readonly hashPassword: HashPassword }) {
    this.#deps = deps;
  }

  /**
   * Applies the given fields. A new email keeps the lookup key unique (409, checked before any password
   * is hashed) and is unverified until proved, unless `emailVerified` says otherwise; a password is
   * stored as an argon2id hash, and null removes it. `active: false` revokes every token session of the
   * user and ends the user's issuer sessions, so that refresh, validation, userinfo and a silent
   * /authorize all stop at once. Taking the operator flag from the last active operator (`isOperator:
   * false` or `active: false`) is a 409 and changes nothing.
   */
  async update(id: string, input: UpdateUserInput, actor?: AdminActor): Promise<UserRecord> {
    const { users } = this.#deps.repositories;
    const current = await existingRecord('user', id, (key) => users.findById(key));
    const emailKey = input.email === undefined ? undefined : requireEmailKey(input.email);
    if (input.emailVerified === true && emailKey === undefined && current.emailKey === null) {
      throw new SvcValidationError('The user has no email address to mark verified; set one first.', [
        { path: 'emailVerified', message: 'the user has no email address' },
      ]);
    }
    if (emailKey !== undefined && emailKey !== current.emailKey) {
      if ((await users.findByEmailKey(emailKey)) !== undefined) throw new SvcConflictError(DUPLICATE_EMAIL);
    }
    const proposed: UserChanges = {
      ...(input.displayName === undefined ? {} : { displayName: input.displayName }),
      ...(input.email === undefined || emailKey === undefined
        ? {}
        : {
            email: input.email,
            emailKey,
            emailVerified: emailKey === current.emailKey && current.emailVerified,
          }),
      ...(input.emailVerified === undefined ? {} : { emailVerified: input.emailVerified }),
      ...(input.password === undefined
        ? {}
        : { passwordHash: input.password === null ? null : await this.#deps.hashPassword(input.password) }),
      ...(input.isOperator === undefined ? {} : { isOperator: input.isOperator }),
      ...(input.active === undefined ? {} : { active: input.active }),
    };
    const { sessions, clock } = this.#deps;
    return applyRecordUpdate(
      this.#deps,
      {
        record: 'user',
        id,
        current,
        changes: differences(current, proposed),
        write: async (changes) => {
          const updated = await users.update(id, changes, clock.now());
          if (updated === 'last_operator') throw lastOperatorConflict(id);
          return updated;
        },
        taken: () => new SvcConflictError(DUPLICATE_EMAIL),
        // `password`, never the hash; the key follows the email.
        fieldName: (field) => (field === 'passwordHash' ? 'password' : field === 'emailKey' ? null : field),
        subject: () => ({ userId: id }),
        endSessions: async () => ({
          sessionsRevoked: await sessions.revokeTokenSessions({ userId: id }, 'user_deactivated'),
          browserSessionsEnded: await sessions.endBrowserSessions(id),
        }),
      },
      actor,
    );
  }
}

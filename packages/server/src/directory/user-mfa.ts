import type { SvcUserMfa, SvcUserMfaResetResult } from '@svc/contract';
import { toIso } from '../kernel/clock.js';
import { actorFields, type AdminActor } from '../audit/actor.js';
import type { DirectoryDeps } from './deps.js';
import { recordNotFound } from './errors.js';
import type { UserMfaStore } from './user-mfa-repository.js';

export interface UserMfaAdminDeps extends DirectoryDeps {
  readonly store: UserMfaStore;
}

/**
 * An operator's view and reset of a user's second factors (GET /users/{id}/mfa, POST
 * /users/{id}/mfa/reset; docs/reference/organizations.md "Operator support for a user"). A reset removes them
 * all: recovery codes are offered only beside a confirmed authenticator, and while unused ones remain a new
 * enrollment issues none, so codes left behind would come back with whatever leaked them. The next sign-in
 * follows the MFA policy: enrollment where MFA is required, none where it is not.
 */
export class UserMfaAdmin {
  readonly #deps: UserMfaAdminDeps;

  constructor(deps: UserMfaAdminDeps) {
    this.#deps = deps;
  }

  /** The user's authenticators (confirmed and enrolling) and unused recovery codes; 404 for no such user. */
  async get(userId: string): Promise<SvcUserMfa> {
    await this.#existing(userId);
    const { authenticators, recoveryCodesRemaining } = await this.#deps.store.factors(
      userId,
      this.#deps.clock.now(),
    );
    return {
      totp: authenticators.map((authenticator) => ({
        id: authenticator.id,
        label: authenticator.label,
        createdAt: toIso(authenticator.createdAt),
        confirmed: authenticator.confirmedAt !== null,
        confirmedAt: authenticator.confirmedAt === null ? null : toIso(authenticator.confirmedAt),
      })),
      recoveryCodesRemaining,
    };
  }

  /** Removes every authenticator and recovery code of the user; audited `admin.user.mfa_reset` (counts). */
  async reset(userId: string, actor?: AdminActor): Promise<SvcUserMfaResetResult> {
    await this.#existing(userId);
    const removed = await this.#deps.store.reset(userId);
    await this.#deps.audit.record({
      kind: 'admin.user.mfa_reset',
      ...actorFields(actor),
      userId,
      data: { authenticatorsRemoved: removed.authenticators, recoveryCodesRemoved: removed.recoveryCodes },
    });
    return { removedAuthenticators: removed.authenticators, removedRecoveryCodes: removed.recoveryCodes };
  }

  async #existing(userId: string): Promise<void> {
    if ((await this.#deps.repositories.users.findById(userId)) === undefined) {
      throw recordNotFound('User', userId);
    }
  }
}

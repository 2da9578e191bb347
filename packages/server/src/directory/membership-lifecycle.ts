import type { UpdateMembershipInput } from '@svc/contract';
import type { AdminActor } from '../audit/actor.js';
import type { DirectoryLifecycleDeps } from './deps.js';
import { applyRecordUpdate, differences, existingRecord } from './record-lifecycle.js';
import type { MembershipRecord } from './repository.js';

/** An operator's changes to a membership: role, and deactivation. */
export class MembershipLifecycle {
  readonly #deps: DirectoryLifecycleDeps;

  constructor(deps: DirectoryLifecycleDeps) {
    this.#deps = deps;
  }

  /**
   * Applies the given fields. `active: false` revokes the user's token sessions in that organization
   * only; the user's other organizations and user-scoped sessions are untouched.
   */
  async update(id: string, input: UpdateMembershipInput, actor?: AdminActor): Promise<MembershipRecord> {
    const { memberships } = this.#deps.repositories;
    const current = await existingRecord('membership', id, (key) => memberships.findById(key));
    const { sessions, clock } = this.#deps;
    return applyRecordUpdate(
      this.#deps,
      {
        record: 'membership',
        id,
        current,
        changes: differences(current, input),
        write: (changes) => memberships.update(id, changes, clock.now()),
        subject: ({ userId, organizationId }) => ({ userId, organizationId }),
        data: { membershipId: id },
        endSessions: async ({ userId, organizationId }) => ({
          sessionsRevoked: await sessions.revokeTokenSessions(
            { userId, organizationId },
            'membership_deactivated',
          ),
        }),
      },
      actor,
    );
  }
}

import type { UpdateOrganizationInput } from '@svc/contract';
import { SvcConflictError } from '../kernel/errors.js';
import type { AdminActor } from '../audit/actor.js';
import type { DirectoryLifecycleDeps } from './deps.js';
import { applyRecordUpdate, differences, existingRecord } from './record-lifecycle.js';
import type { OrganizationRecord } from './repository.js';

/** An operator's changes to an organization: name, slug, and deactivation. */
export class OrganizationLifecycle {
  readonly #deps: DirectoryLifecycleDeps;

  constructor(deps: DirectoryLifecycleDeps) {
    this.#deps = deps;
  }

  /**
   * Applies the given fields; a slug another organization has is a 409. `active: false` revokes every
   * token session scoped to the organization; its members can then sign in to it no more (memberships
   * count only in active organizations), while their other organizations are untouched.
   */
  async update(id: string, input: UpdateOrganizationInput, actor?: AdminActor): Promise<OrganizationRecord> {
    const { organizations } = this.#deps.repositories;
    const current = await existingRecord('organization', id, (key) => organizations.findById(key));
    const { sessions, clock } = this.#deps;
    return applyRecordUpdate(
      this.#deps,
      {
        record: 'organization',
        id,
        current,
        changes: differences(current, input),
        write: (changes) => organizations.update(id, changes, clock.now()),
        taken: () =>
          new SvcConflictError(`The slug '${input.slug ?? ''}' is already taken by another organization.`),
        subject: () => ({ organizationId: id }),
        endSessions: async () => ({
          sessionsRevoked: await sessions.revokeTokenSessions(
            { organizationId: id },
            'organization_deactivated',
          ),
        }),
      },
      actor,
    );
  }
}

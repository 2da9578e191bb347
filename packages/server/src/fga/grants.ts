import type { SvcFgaSubjectType } from '@svc/contract';
import type { AdminActor } from '../audit/actor.js';
import { SvcNotFoundError } from '../kernel/errors.js';
import { unknownReference } from './errors.js';
import { recordGrantEvent, type FgaDeps } from './deps.js';
import type { FgaGrantFilter, FgaGrantRecord, FgaPage, FgaPageRequest } from './repository.js';
import { resolveSubject } from './subjects.js';

/** A grant a source wants, by its ids. */
export interface ManagedGrantKey {
  readonly subjectId: string;
  readonly roleId: string;
  readonly resourceId: string;
}

/** What {@link FgaGrants.applyManaged} changed. */
export interface ManagedGrantChanges {
  readonly created: readonly FgaGrantRecord[];
  readonly revoked: readonly FgaGrantRecord[];
}

/** The source of grants made through the operator API, or in process without one. */
export const OPERATOR_MANAGED = 'operator';

export interface CreateGrantInput {
  readonly subjectId: string;
  readonly subjectType?: SvcFgaSubjectType | undefined;
  readonly roleId: string;
  readonly resourceId: string;
  /**
   * Who manages the grant: `operator` (the default), or a source such as `scim:<connectionId>` that
   * creates and revokes its grants itself (docs/reference/fga.md "Grants").
   */
  readonly managedBy?: string | undefined;
}

/**
 * Grants: a subject holds a role on a resource, and through it the role's permissions on that
 * resource and everything below it. Revoking deletes the grant, so it is gone from every list and
 * from the next check on every node (the write bumps the model's version).
 */
export class FgaGrants {
  readonly #deps: FgaDeps;

  constructor(deps: FgaDeps) {
    this.#deps = deps;
  }

  list(filter: FgaGrantFilter, page: FgaPageRequest): Promise<FgaPage<FgaGrantRecord>> {
    return this.#deps.repository.listGrants(filter, page);
  }

  async get(id: string): Promise<FgaGrantRecord> {
    const grant = await this.#deps.repository.findGrant(id);
    if (grant === undefined) throw new SvcNotFoundError('No grant has this id.');
    return grant;
  }

  /** Grants the role; the same grant from the same source again answers the one there is. */
  async create(
    input: CreateGrantInput,
    actor?: AdminActor,
  ): Promise<{ grant: FgaGrantRecord; created: boolean }> {
    const managedBy = input.managedBy ?? OPERATOR_MANAGED;
    const outcome = await this.#deps.repository.write(async (tx) => {
      const subject = await resolveSubject(tx, input.subjectId, input.subjectType);
      if (subject === undefined) throw unknownReference('subjectId', 'No subject has this id.');
      if ((await tx.findDefinition('role', input.roleId)) === undefined) {
        throw unknownReference('roleId', 'No role has this id.');
      }
      if ((await tx.findResource(input.resourceId)) === undefined) {
        throw unknownReference('resourceId', 'No resource has this id.');
      }
      const key = { subject, roleId: input.roleId, resourceId: input.resourceId, managedBy };
      const existing = await tx.findGrantByKey(key);
      if (existing !== undefined) return { grant: existing, created: false };
      const grant: FgaGrantRecord = {
        id: this.#deps.ids.id('fgt'),
        ...key,
        createdAt: this.#deps.clock.now(),
      };
      await tx.insertGrant(grant);
      return { grant, created: true };
    });
    if (outcome.created) await recordGrantEvent(this.#deps, 'created', outcome.grant, actor);
    return outcome;
  }

  /** Revokes one grant (404 when there is none with this id, revoked already included). */
  async revoke(id: string, actor?: AdminActor): Promise<FgaGrantRecord> {
    const [revoked] = await this.#deps.repository.write((tx) => tx.deleteGrants({ id }));
    if (revoked === undefined) throw new SvcNotFoundError('No grant has this id.');
    await recordGrantEvent(this.#deps, 'revoked', revoked, actor);
    return revoked;
  }

  /**
   * Revokes every grant `managedBy` made (of one subject, when given), in one write: what a source
   * such as a SCIM connection does when it is disabled or a group leaves its scope.
   */
  async revokeManaged(
    managedBy: string,
    options: { readonly subjectId?: string } = {},
    actor?: AdminActor,
  ): Promise<FgaGrantRecord[]> {
    const revoked = await this.#deps.repository.write((tx) => tx.deleteGrants({ managedBy, ...options }));
    for (const grant of revoked) await recordGrantEvent(this.#deps, 'revoked', grant, actor);
    return revoked;
  }

  /**
   * Brings a source's grants to what it computed, in one write (one version bump, however many grants a
   * SCIM group push touches): revokes those of `revokeIds` that `managedBy` made, and makes each of
   * `create` it does not hold yet. A subject, role or resource that names nothing is a 400, as in
   * {@link create}. Each change is an `fga.grant.*` event carrying `reason`.
   */
  async applyManaged(
    managedBy: string,
    changes: { readonly create: readonly ManagedGrantKey[]; readonly revokeIds: readonly string[] },
    reason: string,
  ): Promise<ManagedGrantChanges> {
    const { clock, ids } = this.#deps;
    const outcome = await this.#deps.repository.write(async (tx) => {
      const revoked =
        changes.revokeIds.length === 0 ? [] : await tx.deleteGrants({ managedBy, ids: changes.revokeIds });
      const created: FgaGrantRecord[] = [];
      // Each role and resource is looked up once, however many members a push grants it to.
      const knownRoles = new Set<string>();
      const knownResources = new Set<string>();
      for (const key of changes.create) {
        const subject = await resolveSubject(tx, key.subjectId, undefined);
        if (subject === undefined) throw unknownReference('subjectId', 'No subject has this id.');
        if (!knownRoles.has(key.roleId)) {
          if ((await tx.findDefinition('role', key.roleId)) === undefined) {
            throw unknownReference('roleId', 'No role has this id.');
          }
          knownRoles.add(key.roleId);
        }
        if (!knownResources.has(key.resourceId)) {
          if ((await tx.findResource(key.resourceId)) === undefined) {
            throw unknownReference('resourceId', 'No resource has this id.');
          }
          knownResources.add(key.resourceId);
        }
        const grantKey = { subject, roleId: key.roleId, resourceId: key.resourceId, managedBy };
        if ((await tx.findGrantByKey(grantKey)) !== undefined) continue;
        const grant: FgaGrantRecord = { id: ids.id('fgt'), ...grantKey, createdAt: clock.now() };
        await tx.insertGrant(grant);
        created.push(grant);
      }
      return { created, revoked };
    });
    for (const grant of outcome.revoked) {
      await recordGrantEvent(this.#deps, 'revoked', grant, undefined, reason);
    }
    for (const grant of outcome.created) {
      await recordGrantEvent(this.#deps, 'created', grant, undefined, reason);
    }
    return outcome;
  }
}

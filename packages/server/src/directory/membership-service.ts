import type { CreateMembershipInput, MembershipListInput, Page, SvcOrganizationOption } from '@svc/contract';
import { recordNotFound } from './errors.js';
import { actorFields, type AdminActor } from '../audit/actor.js';
import type { DirectoryDeps } from './deps.js';
import type {
  ListQuery,
  MembershipRecord,
  OrganizationMemberRecord,
  UserMembershipRecord,
} from './repository.js';
import { userSearchOf } from './user-service.js';

/** The result of creating a membership: `created` is false when an existing one was updated. */
export interface MembershipResult {
  readonly membership: MembershipRecord;
  readonly created: boolean;
}

/** Memberships of users in organizations, and the questions sign-in asks about them. */
export class MembershipService {
  readonly #deps: DirectoryDeps;

  constructor(deps: DirectoryDeps) {
    this.#deps = deps;
  }

  /**
   * Adds the user to the organization with the role. Both must exist (404 naming which does not). When
   * the pair already has a membership, that membership is returned with the new role and reactivated,
   * keeping its id and createdAt: creating a membership is idempotent rather than a 409, so that
   * provisioning scripts can be re-run.
   */
  async create(input: CreateMembershipInput, actor?: AdminActor): Promise<MembershipResult> {
    const { organizations, users, memberships } = this.#deps.repositories;
    if ((await organizations.findById(input.organizationId)) === undefined) {
      throw recordNotFound('Organization', input.organizationId);
    }
    if ((await users.findById(input.userId)) === undefined) {
      throw recordNotFound('User', input.userId);
    }
    const now = this.#deps.clock.now();
    const id = this.#deps.ids.id('mem');
    const membership = await memberships.upsert({
      id,
      organizationId: input.organizationId,
      userId: input.userId,
      role: input.role,
      active: true,
      createdAt: now,
      updatedAt: now,
    });
    const created = membership.id === id;
    await this.#deps.audit.record({
      kind: created ? 'admin.membership.created' : 'admin.membership.updated',
      ...actorFields(actor),
      organizationId: membership.organizationId,
      userId: membership.userId,
      data: { membershipId: membership.id, role: membership.role },
    });
    return { membership, created };
  }

  /** The membership with this id, in any state. */
  get(id: string): Promise<MembershipRecord | undefined> {
    return this.#deps.repositories.memberships.findById(id);
  }

  /**
   * The organization's memberships with their users, newest first: in any state unless `active` says,
   * members matching `query` as GET /users matches users. An unknown organization is a 404.
   */
  async listForOrganization(
    organizationId: string,
    input: MembershipListInput,
  ): Promise<Page<OrganizationMemberRecord>> {
    if ((await this.#deps.repositories.organizations.findById(organizationId)) === undefined) {
      throw recordNotFound('Organization', organizationId);
    }
    const { limit, cursor, query, active } = input;
    return this.#deps.repositories.memberships.listForOrganization(organizationId, {
      limit,
      cursor,
      search: userSearchOf(query),
      active,
    });
  }

  /** The user's memberships in any state with their organizations, newest first; an unknown user is a 404. */
  async listForUser(userId: string, query: ListQuery): Promise<Page<UserMembershipRecord>> {
    if ((await this.#deps.repositories.users.findById(userId)) === undefined) {
      throw recordNotFound('User', userId);
    }
    return this.#deps.repositories.memberships.listForUser(userId, query);
  }

  /**
   * getUserOrganizationsAsync (docs/reference/organizations.md "Memberships in process"): active memberships
   * of active organizations, by name.
   */
  async userOrganizations(userId: string): Promise<SvcOrganizationOption[]> {
    const rows = await this.#deps.repositories.memberships.listUserOrganizations(userId);
    return rows.map((row) => ({ id: row.id, slug: row.slug, name: row.name, role: row.role }));
  }

  /**
   * userHasMembershipAsync (docs/reference/organizations.md "Memberships in process"): an active membership
   * in an active organization.
   */
  userHasMembership(userId: string, organizationId: string): Promise<boolean> {
    return this.#deps.repositories.memberships.hasActiveMembership(userId, organizationId);
  }
}

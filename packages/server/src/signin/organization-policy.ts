import type { SvcOrganizationOption } from '@svc/contract';
import type { MembershipRepository } from '../directory/repository.js';
import { SvcPublicAuthError } from '../kernel/errors.js';

export interface OrganizationPolicyDeps {
  readonly memberships: Pick<MembershipRepository, 'listUserOrganizations' | 'hasActiveMembership'>;
}

/** Keeps the organizations a sign-in may land in, out of the user's. */
export type NarrowOrganizations = (
  options: readonly SvcOrganizationOption[],
) => Promise<readonly SvcOrganizationOption[]>;

/** Which organization a sign-in lands in, or that the user must choose. */
export type OrganizationDecision =
  | {
      readonly kind: 'decided';
      readonly organizationId: string | null;
      /** The user's active memberships, when the decision read them (no organization was requested). */
      readonly organizations?: readonly SvcOrganizationOption[];
    }
  | { readonly kind: 'selection_required'; readonly organizations: SvcOrganizationOption[] };

/** The answer when a user asks for an organization without an active membership there (403). */
export function notAMemberError(): SvcPublicAuthError {
  return new SvcPublicAuthError(
    'access_denied',
    'The user is not an active member of the requested organization.',
    403,
  );
}

/**
 * The organization policy of every sign-in (docs/reference/sign-in.md "Organization selection"), after the user has authenticated:
 *
 * | requested organization | active memberships | outcome |
 * |---|---|---|
 * | given, a member | any | that organization |
 * | given, not an active member | any | access_denied (403), see {@link notAMemberError} |
 * | none | exactly one | that organization |
 * | none | none | user-scoped session (organizationId null) |
 * | none | several | organization_selection with the options |
 *
 * Memberships count only when active and in an active organization.
 */
export class OrganizationPolicy {
  readonly #deps: OrganizationPolicyDeps;

  constructor(deps: OrganizationPolicyDeps) {
    this.#deps = deps;
  }

  /** `narrow`: which of the user's organizations the sign-in may land in (the client's access rules). */
  async decide(
    userId: string,
    requestedOrganizationId: string | null,
    narrow: NarrowOrganizations = (options) => Promise.resolve(options),
  ): Promise<OrganizationDecision> {
    if (requestedOrganizationId !== null) {
      await this.requireMember(userId, requestedOrganizationId);
      return { kind: 'decided', organizationId: requestedOrganizationId };
    }
    const organizations = [...(await narrow(await this.options(userId)))];
    if (organizations.length === 0) return { kind: 'decided', organizationId: null, organizations };
    if (organizations.length === 1) {
      return { kind: 'decided', organizationId: organizations[0]?.id ?? null, organizations };
    }
    return { kind: 'selection_required', organizations };
  }

  /** The organizations the user may choose: active memberships of active organizations, by name. */
  async options(userId: string): Promise<SvcOrganizationOption[]> {
    const rows = await this.#deps.memberships.listUserOrganizations(userId);
    return rows.map((row) => ({ id: row.id, slug: row.slug, name: row.name, role: row.role }));
  }

  async requireMember(userId: string, organizationId: string): Promise<void> {
    if (!(await this.#deps.memberships.hasActiveMembership(userId, organizationId))) {
      throw notAMemberError();
    }
  }
}

import {
  clientListQuerySchema,
  createClientBodySchema,
  createMembershipBodySchema,
  createOrganizationBodySchema,
  createUserBodySchema,
  emailSchema,
  organizationListQuerySchema,
  userListQuerySchema,
  type ClientListQuery,
  type CreateClientBody,
  type CreateMembershipBody,
  type CreateOrganizationBody,
  type CreateUserBody,
  type OrganizationListQuery,
  type Page,
  type SvcClient,
  type SvcCreatedClient,
  type SvcMembership,
  type SvcOrganization,
  type SvcOrganizationOption,
  type SvcUser,
  type UserListQuery,
} from '@svc/contract';
import type { ClientService } from '../../directory/client-service.js';
import type { AdminActor } from '../../audit/actor.js';
import type { MembershipService } from '../../directory/membership-service.js';
import type { OrganizationService } from '../../directory/organization-service.js';
import type { UserService } from '../../directory/user-service.js';
import { toSvcClient, toSvcMembership, toSvcOrganization, toSvcUser } from '../../directory/views.js';
import { validate } from '../../kernel/validation.js';

export interface SvcAdminDirectoryDeps {
  readonly organizations: OrganizationService;
  readonly users: UserService;
  readonly memberships: MembershipService;
  readonly clients: ClientService;
}

/**
 * The operations of SvcAdminService that create and list records (docs/reference/operator-api.md
 * "Records"): organizations, users, memberships and clients, the user's organizations, and marking an
 * operator. Requests are validated with the contract schemas of the HTTP routes (400); a taken email,
 * slug or clientId is a 409.
 */
export class SvcAdminDirectory {
  readonly #deps: SvcAdminDirectoryDeps;

  constructor(deps: SvcAdminDirectoryDeps) {
    this.#deps = deps;
  }

  /** CreateOrganizationAsync: `slug` null or omitted is generated from the name; a taken slug is a 409. */
  async createOrganizationAsync(
    request: CreateOrganizationBody,
    actor?: AdminActor,
  ): Promise<SvcOrganization> {
    const input = validate(createOrganizationBodySchema, request, 'organization');
    return toSvcOrganization(await this.#deps.organizations.create(input, actor));
  }

  /** Organizations, newest first: `query` (name contains, slug starts with, id), `active`. */
  async listOrganizationsAsync(request: OrganizationListQuery = {}): Promise<Page<SvcOrganization>> {
    const page = await this.#deps.organizations.list(
      validate(organizationListQuerySchema, request, 'organization list request'),
    );
    return { data: page.data.map(toSvcOrganization), nextCursor: page.nextCursor };
  }

  /** CreateUserAsync: the email is normalized and deduplicated (409); a null password means passwordless. */
  async createUserAsync(
    request: CreateUserBody,
    actor?: AdminActor,
  ): Promise<SvcUser & { readonly email: string }> {
    const input = validate(createUserBodySchema, request, 'user');
    const user = await this.#deps.users.create(input, actor);
    // Created from an address, so it has one.
    return { ...toSvcUser(user), email: input.email };
  }

  /**
   * Users, newest first: `query` (email starts with, display name contains, id), `organizationId`
   * (active members), `active`, `email` (the exact address).
   */
  async listUsersAsync(request: UserListQuery = {}): Promise<Page<SvcUser>> {
    const page = await this.#deps.users.list(validate(userListQuerySchema, request, 'user list request'));
    return { data: page.data.map(toSvcUser), nextCursor: page.nextCursor };
  }

  /**
   * CreateMembershipAsync, taking one request object `{ organizationId, userId, role }` (the shape of
   * the HTTP body) rather than an organizationId argument plus a body, so that both callers share one
   * schema. A missing organization or user is a 404 naming which. An existing membership of the same
   * user in the same organization is updated to the role, reactivated and returned (not a 409).
   */
  async createMembershipAsync(request: CreateMembershipBody, actor?: AdminActor): Promise<SvcMembership> {
    const input = validate(createMembershipBodySchema, request, 'membership');
    const { membership } = await this.#deps.memberships.create(input, actor);
    return toSvcMembership(membership);
  }

  /**
   * CreateClientAsync: the clientId is unique (409); `isFirstParty` defaults to false and
   * `tokenEndpointAuthMethod` to `none`. A confidential client's generated secret is in the result's
   * `clientSecret`, once: only its hash is stored.
   */
  async createClientAsync(request: CreateClientBody, actor?: AdminActor): Promise<SvcCreatedClient> {
    const input = validate(createClientBodySchema, request, 'client');
    const { client, clientSecret } = await this.#deps.clients.create(input, actor);
    return clientSecret === undefined ? toSvcClient(client) : { ...toSvcClient(client), clientSecret };
  }

  /**
   * Clients, newest first (never a secret); `registration` keeps the self-registered or operator-made
   * ones, `query` (name contains, clientId starts with, id) and `active` narrow them further.
   */
  async listClientsAsync(request: ClientListQuery = {}): Promise<Page<SvcClient>> {
    const page = await this.#deps.clients.list(
      validate(clientListQuerySchema, request, 'client list request'),
    );
    return { data: page.data.map(toSvcClient), nextCursor: page.nextCursor };
  }

  /** GetUserOrganizationsAsync: the user's active memberships in active organizations, by name. */
  getUserOrganizationsAsync(userId: string): Promise<SvcOrganizationOption[]> {
    return this.#deps.memberships.userOrganizations(userId);
  }

  /** UserHasMembershipAsync: true for an active membership in an active organization. */
  userHasMembershipAsync(userId: string, organizationId: string): Promise<boolean> {
    return this.#deps.memberships.userHasMembership(userId, organizationId);
  }

  /**
   * Marks the user with this email an operator (`svc operator add <email>`), creating a user without a
   * password when none exists. Idempotent.
   */
  async setOperatorAsync(email: string, actor?: AdminActor): Promise<SvcUser> {
    const address = validate(emailSchema, email, 'email');
    return toSvcUser(await this.#deps.users.setOperator(address, actor));
  }
}

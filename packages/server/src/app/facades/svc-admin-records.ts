import {
  clientPathSchema,
  membershipListQuerySchema,
  pageQuerySchema,
  recordPathSchema,
  updateClientBodySchema,
  updateMembershipBodySchema,
  updateOrganizationBodySchema,
  updateUserBodySchema,
  type MembershipListQuery,
  type Page,
  type SvcClient,
  type SvcCreatedClient,
  type SvcMembership,
  type SvcOrganizationMember,
  type SvcPageRequest,
  type SvcOrganization,
  type SvcUser,
  type SvcUserMembership,
  type SvcUserMfa,
  type SvcUserMfaResetResult,
  type UpdateClientBody,
  type UpdateMembershipBody,
  type UpdateOrganizationBody,
  type UpdateUserBody,
} from '@svc/contract';
import type { ClientLifecycle } from '../../directory/client-lifecycle.js';
import type { ClientService } from '../../directory/client-service.js';
import type { AdminActor } from '../../audit/actor.js';
import { recordNotFound } from '../../directory/errors.js';
import type { MembershipLifecycle } from '../../directory/membership-lifecycle.js';
import type { MembershipService } from '../../directory/membership-service.js';
import type { OrganizationLifecycle } from '../../directory/organization-lifecycle.js';
import type { OrganizationService } from '../../directory/organization-service.js';
import type { UserLifecycle } from '../../directory/user-lifecycle.js';
import type { UserMfaAdmin } from '../../directory/user-mfa.js';
import type { UserService } from '../../directory/user-service.js';
import {
  toSvcClient,
  toSvcMembership,
  toSvcOrganization,
  toSvcOrganizationMember,
  toSvcUser,
  toSvcUserMembership,
} from '../../directory/views.js';
import { validate } from '../../kernel/validation.js';

export interface SvcAdminRecordsDeps {
  readonly organizations: OrganizationService;
  readonly users: UserService;
  readonly memberships: MembershipService;
  readonly clients: ClientService;
  /** The operator's updates and deactivations of each kind of record. */
  readonly lifecycle: {
    readonly users: UserLifecycle;
    readonly organizations: OrganizationLifecycle;
    readonly memberships: MembershipLifecycle;
    readonly clients: ClientLifecycle;
  };
  /** Users' second factors, read and reset by operators. */
  readonly userMfa: UserMfaAdmin;
}

/**
 * The record operations of SvcAdminService (docs/reference/operator-api.md "Records"): read, update,
 * deactivate and reactivate users, organizations, memberships and clients, list memberships, rotate a
 * client secret. Ids and bodies are validated with the contract schemas of the HTTP routes (400); an
 * unknown record is a 404; a taken email or slug a 409. Deactivation takes effect at once (the record's
 * sessions are revoked); reactivation restores sign-in, not the revoked sessions. Reads never carry a
 * password hash or a client secret.
 */
export class SvcAdminRecords {
  readonly #records: SvcAdminRecordsDeps;

  constructor(deps: SvcAdminRecordsDeps) {
    this.#records = deps;
  }

  /** GetUserAsync. */
  async getUserAsync(userId: string): Promise<SvcUser> {
    const { id } = validate(recordPathSchema, { id: userId }, 'user id');
    const user = await this.#records.users.get(id);
    if (user === undefined) throw recordNotFound('User', id);
    return toSvcUser(user);
  }

  /**
   * UpdateUserAsync: displayName, email (unique, 409; unverified until proved or `emailVerified`),
   * password (null removes it), isOperator, active; 409 when it would leave no active operator.
   */
  async updateUserAsync(userId: string, request: UpdateUserBody, actor?: AdminActor): Promise<SvcUser> {
    const { id } = validate(recordPathSchema, { id: userId }, 'user id');
    const input = validate(updateUserBodySchema, request, 'user update');
    return toSvcUser(await this.#records.lifecycle.users.update(id, input, actor));
  }

  /**
   * The user's TOTP authenticators (confirmed and enrolling; never a secret) and unused recovery codes
   * (`GET /users/{id}/mfa`).
   */
  async getUserMfaAsync(userId: string): Promise<SvcUserMfa> {
    const { id } = validate(recordPathSchema, { id: userId }, 'user id');
    return this.#records.userMfa.get(id);
  }

  /**
   * Removes every authenticator and recovery code of the user (`POST /users/{id}/mfa/reset`), for a user
   * who lost theirs; the next sign-in follows the MFA policy (enrollment where it is required).
   */
  async resetUserMfaAsync(userId: string, actor?: AdminActor): Promise<SvcUserMfaResetResult> {
    const { id } = validate(recordPathSchema, { id: userId }, 'user id');
    return this.#records.userMfa.reset(id, actor);
  }

  /** DeactivateUserAsync: every session of the user ends; sign-in is refused until reactivation. */
  deactivateUserAsync(userId: string, actor?: AdminActor): Promise<SvcUser> {
    return this.updateUserAsync(userId, { active: false }, actor);
  }

  /** ReactivateUserAsync: sign-in works again; revoked sessions stay revoked. */
  reactivateUserAsync(userId: string, actor?: AdminActor): Promise<SvcUser> {
    return this.updateUserAsync(userId, { active: true }, actor);
  }

  /** GetOrganizationAsync. */
  async getOrganizationAsync(organizationId: string): Promise<SvcOrganization> {
    const { id } = validate(recordPathSchema, { id: organizationId }, 'organization id');
    const organization = await this.#records.organizations.get(id);
    if (organization === undefined) throw recordNotFound('Organization', id);
    return toSvcOrganization(organization);
  }

  /** UpdateOrganizationAsync: name, slug (unique, 409), primaryDomain (null removes it), active. */
  async updateOrganizationAsync(
    organizationId: string,
    request: UpdateOrganizationBody,
    actor?: AdminActor,
  ): Promise<SvcOrganization> {
    const { id } = validate(recordPathSchema, { id: organizationId }, 'organization id');
    const input = validate(updateOrganizationBodySchema, request, 'organization update');
    return toSvcOrganization(await this.#records.lifecycle.organizations.update(id, input, actor));
  }

  /** DeactivateOrganizationAsync: the sessions scoped to the organization end; nobody signs in to it. */
  deactivateOrganizationAsync(organizationId: string, actor?: AdminActor): Promise<SvcOrganization> {
    return this.updateOrganizationAsync(organizationId, { active: false }, actor);
  }

  /** ReactivateOrganizationAsync. */
  reactivateOrganizationAsync(organizationId: string, actor?: AdminActor): Promise<SvcOrganization> {
    return this.updateOrganizationAsync(organizationId, { active: true }, actor);
  }

  /**
   * ListOrganizationMembershipsAsync: the organization's memberships with their users, newest first;
   * `query` finds members as GET /users finds users, `active` keeps active (or inactive) memberships.
   */
  async listOrganizationMembershipsAsync(
    organizationId: string,
    request: MembershipListQuery = {},
  ): Promise<Page<SvcOrganizationMember>> {
    const { id } = validate(recordPathSchema, { id: organizationId }, 'organization id');
    const query = validate(membershipListQuerySchema, request, 'membership list request');
    const page = await this.#records.memberships.listForOrganization(id, query);
    return { data: page.data.map(toSvcOrganizationMember), nextCursor: page.nextCursor };
  }

  /** ListUserMembershipsAsync: every membership of the user with its organization, newest first. */
  async listUserMembershipsAsync(
    userId: string,
    request: SvcPageRequest = {},
  ): Promise<Page<SvcUserMembership>> {
    const { id } = validate(recordPathSchema, { id: userId }, 'user id');
    const query = validate(pageQuerySchema, request, 'page request');
    const page = await this.#records.memberships.listForUser(id, query);
    return { data: page.data.map(toSvcUserMembership), nextCursor: page.nextCursor };
  }

  /** GetMembershipAsync: one membership, active or not. */
  async getMembershipAsync(membershipId: string): Promise<SvcMembership> {
    const { id } = validate(recordPathSchema, { id: membershipId }, 'membership id');
    const membership = await this.#records.memberships.get(id);
    if (membership === undefined) throw recordNotFound('Membership', id);
    return toSvcMembership(membership);
  }

  /** UpdateMembershipAsync: role, active. */
  async updateMembershipAsync(
    membershipId: string,
    request: UpdateMembershipBody,
    actor?: AdminActor,
  ): Promise<SvcMembership> {
    const { id } = validate(recordPathSchema, { id: membershipId }, 'membership id');
    const input = validate(updateMembershipBodySchema, request, 'membership update');
    return toSvcMembership(await this.#records.lifecycle.memberships.update(id, input, actor));
  }

  /** DeactivateMembershipAsync: the user's sessions in that organization end. */
  deactivateMembershipAsync(membershipId: string, actor?: AdminActor): Promise<SvcMembership> {
    return this.updateMembershipAsync(membershipId, { active: false }, actor);
  }

  /** ReactivateMembershipAsync. */
  reactivateMembershipAsync(membershipId: string, actor?: AdminActor): Promise<SvcMembership> {
    return this.updateMembershipAsync(membershipId, { active: true }, actor);
  }

  /** GetClientAsync: the registration, never the secret. */
  async getClientAsync(clientId: string): Promise<SvcClient> {
    const input = validate(clientPathSchema, { clientId }, 'client id');
    const client = await this.#records.clients.findByClientId(input.clientId);
    if (client === undefined) throw recordNotFound('Client', input.clientId);
    return toSvcClient(client);
  }

  /** UpdateClientAsync: the fields of CreateClientAsync but the clientId, and active. */
  async updateClientAsync(
    clientId: string,
    request: UpdateClientBody,
    actor?: AdminActor,
  ): Promise<SvcClient> {
    const path = validate(clientPathSchema, { clientId }, 'client id');
    const input = validate(updateClientBodySchema, request, 'client update');
    return toSvcClient(await this.#records.lifecycle.clients.update(path.clientId, input, actor));
  }

  /** DeactivateClientAsync: the client's sessions end and it gets `invalid_client` everywhere. */
  deactivateClientAsync(clientId: string, actor?: AdminActor): Promise<SvcClient> {
    return this.updateClientAsync(clientId, { active: false }, actor);
  }

  /** ReactivateClientAsync. */
  reactivateClientAsync(clientId: string, actor?: AdminActor): Promise<SvcClient> {
    return this.updateClientAsync(clientId, { active: true }, actor);
  }

  /**
   * RotateClientSecretAsync: a confidential client's new secret, in `clientSecret` once (400 for a
   * public client); the old secret stops working at once.
   */
  async rotateClientSecretAsync(clientId: string, actor?: AdminActor): Promise<SvcCreatedClient> {
    const path = validate(clientPathSchema, { clientId }, 'client id');
    const rotated = await this.#records.lifecycle.clients.rotateSecret(path.clientId, actor);
    return { ...toSvcClient(rotated.client), clientSecret: rotated.clientSecret };
  }
}

import {
  createClientBodySchema,
  createMembershipBodySchema,
  createOrganizationBodySchema,
  createOidcConnectionBodySchema,
  createUserBodySchema,
  emailSchema,
  oidcConnectionPathSchema,
  organizationListQuerySchema,
  pageQuerySchema,
  userListQuerySchema,
  type OrganizationListQuery,
  type UserListQuery,
  securitySettingsUpdateBodySchema,
  type ResolvedSecuritySettings,
  updateOidcConnectionBodySchema,
  svcUserGrantPathSchema,
  svcUserGrantsPathSchema,
  svcUserIdentityPathSchema,
  type SvcLinkedIdentity,
  type CreateClientBody,
  type CreateMembershipBody,
  type CreateOidcConnectionBody,
  type CreateOrganizationBody,
  type CreateUserBody,
  type Page,
  type SecuritySettingsUpdateBody,
  type SvcClient,
  type SvcConsentGrant,
  type SvcConsentGrantRevokeResult,
  type SvcCreatedClient,
  type SvcMembership,
  type SvcOidcConnection,
  type SvcOidcConnectionDeleteResult,
  type SvcOrganization,
  type SvcOrganizationOption,
  type SvcMfaSettings,
  type SvcMfaSettingsInput,
  type SvcOrganizationMfaPolicy,
  type SvcOrganizationMfaPolicyInput,
  type SvcPageRequest,
  clientListQuerySchema,
  type ClientListQuery,
  type SvcSecuritySettings,
  type SvcUser,
  type UpdateOidcConnectionBody,
} from '@svc/contract';
import { actorFields, type AdminActor } from '../../audit/actor.js';
import { SvcNotFoundError } from '../../kernel/errors.js';
import { validate } from '../../kernel/validation.js';
import { toSvcClient, toSvcMembership, toSvcOrganization, toSvcUser } from '../../directory/views.js';
import type { AuditLog } from '../../audit/audit-log.js';
import type { SecuritySettingsService } from '../../settings/security-settings-service.js';
import type { MfaSettingsService } from '../../signin/methods/mfa/mfa-settings.js';
import type { ConsentGrants } from '../../signin/consent-grants.js';
import type { OidcConnectionAdmin } from '../../federation/oidc/connection-admin.js';
import { toSvcLinkedIdentity, toSvcOidcConnection } from '../../federation/oidc/views.js';
import type { OidcAccountLinking } from '../../federation/oidc/account-linking.js';
import { SvcAdminSessions, type SvcAdminSessionsDeps } from './svc-admin-sessions.js';

export type { AdminActor } from '../../audit/actor.js';

export interface SvcAdminServiceDeps extends SvcAdminSessionsDeps {
  readonly securitySettings: SecuritySettingsService;
  /** Global MFA settings and organization MFA policies (validated and audited there). */
  readonly mfaSettings: MfaSettingsService;
  readonly audit: AuditLog;
  /** The users' consent grants, listed and revoked by operators (the sign-in engine records them). */
  readonly consents: Pick<ConsentGrants, 'list' | 'revoke'>;
  /** OpenID / social provider connections (validated, sealed and audited there). */
  readonly oidcConnections: OidcConnectionAdmin;
  /** The provider identities linked to accounts. */
  readonly linkedIdentities: Pick<OidcAccountLinking, 'list' | 'unlink'>;
}

/**
 * SPEC.md's SvcAdminService: the in-process operator API, and what the operator HTTP routes call.
 * Every request is validated with the same contract schema as the HTTP body, so an in-process caller
 * gets the same 400s ({@link SvcValidationError}) as a caller over HTTP. Errors: SvcValidationError
 * (400), SvcNotFoundError (404), SvcConflictError (409).
 *
 * The optional `actor` of the write operations is recorded in the audit log; without it the actor is
 * `system`. The record operations (get, update, deactivate, reactivate, list memberships, rotate a client
 * secret) are inherited from SvcAdminRecords (svc-admin-records.ts), the SAML SSO connection operations
 * from SvcAdminSsoConnections, the SCIM connection and mapping rule operations from
 * SvcAdminScimConnections and SvcAdminScimMappings, the domain-claim operations (StartVerificationAsync,
 * ConfirmOwnershipAsync, list, revoke) from SvcAdminDomainClaims, the SSO setup portal's links from
 * SvcAdminSsoPortal, the scope display names from SvcAdminScopeDisplayNames and the token-session list
 * and revocation from {@link SvcAdminSessions}; each keeps them in a file of its own.
 */
export class SvcAdminService extends SvcAdminSessions {
  readonly #deps: SvcAdminServiceDeps;

  constructor(deps: SvcAdminServiceDeps) {
    super(deps);
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
   * the HTTP body) rather than SPEC.md's organizationId argument plus a body, so that both callers share
   * one schema. A missing organization or user is a 404 naming which. An existing membership of the
   * same user in the same organization is updated to the role, reactivated and returned (not a 409).
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

  /**
   * The user's active consent grants, as `GET /users/{userId}/grants` answers them (`{ data }`, one
   * entry per client). An unknown user is a 404.
   */
  async listUserGrantsAsync(userId: string): Promise<{ data: SvcConsentGrant[] }> {
    return { data: await this.#deps.consents.list(await this.#existingUser(userId, 'user grants request')) };
  }

  /** `GET /users/{userId}/identities`: the provider identities linked to the account (404: no such user). */
  async listUserIdentitiesAsync(userId: string): Promise<{ data: SvcLinkedIdentity[] }> {
    const id = await this.#existingUser(userId, 'linked identities request');
    return { data: (await this.#deps.linkedIdentities.list(id)).map(toSvcLinkedIdentity) };
  }

  /** The validated id of a user who exists; a 404 otherwise. `what` names the request in a 400. */
  async #existingUser(userId: string, what: string): Promise<string> {
    const input = validate(svcUserGrantsPathSchema, { userId }, what);
    if ((await this.#deps.users.get(input.userId)) === undefined) {
      throw new SvcNotFoundError(`User '${input.userId}' was not found.`);
    }
    return input.userId;
  }

  /**
   * `DELETE /users/{userId}/identities/{identityId}`: 404 for a link the user does not have; 409 when it
   * is the account's last way to sign in (set a password or an address first). Audited with the operator.
   */
  async removeUserIdentityAsync(userId: string, identityId: string, actor?: AdminActor): Promise<void> {
    const input = validate(svcUserIdentityPathSchema, { userId, identityId }, 'identity removal request');
    const removed = await this.#deps.linkedIdentities.unlink(input.userId, input.identityId, {
      ...(actor?.actorType === 'operator' ? { operator: { actorId: actor.actorId } } : {}),
      ...(actor?.ipAddress === undefined ? {} : { ipAddress: actor.ipAddress }),
    });
    if (!removed)
      throw new SvcNotFoundError(`User '${input.userId}' has no linked identity '${input.identityId}'.`);
  }

  /**
   * Revokes one of the user's consent grants (`POST /users/{userId}/grants/{grantId}/revoke`); the
   * client must ask for consent again. SPEC.md: "400 for unknown or already revoked" — also for a grant
   * of another user. Audited as `oauth.consent.revoked` with the operator as the actor.
   */
  async revokeUserGrantAsync(
    userId: string,
    grantId: string,
    actor?: AdminActor,
  ): Promise<SvcConsentGrantRevokeResult> {
    const input = validate(svcUserGrantPathSchema, { userId, grantId }, 'grant revocation request');
    return this.#deps.consents.revoke(input.userId, input.grantId, {
      actorType: actor?.actorType ?? 'system',
      ...(actor?.actorId === undefined ? {} : { actorId: actor.actorId }),
      ...(actor?.ipAddress === undefined ? {} : { ipAddress: actor.ipAddress }),
    });
  }

  /** GetResolvedSecuritySettingsAsync: the persisted settings plus the spans in milliseconds. */
  getResolvedSecuritySettingsAsync(): Promise<ResolvedSecuritySettings> {
    return this.#deps.securitySettings.getResolved();
  }

  /** The persisted security settings, as GET /settings/security shows them. */
  async getSecuritySettingsAsync(): Promise<SvcSecuritySettings> {
    return { ...(await this.#deps.securitySettings.get()) };
  }

  /**
   * UpdateSecuritySettingsAsync: validates the whole record (ranges; the signing-key grace window must
   * be shorter than the rotation interval), defaults `refreshTokenGraceWindowSeconds` to 30 and returns
   * the persisted settings.
   */
  async updateSecuritySettingsAsync(
    request: SecuritySettingsUpdateBody,
    actor?: AdminActor,
  ): Promise<SvcSecuritySettings> {
    const input = validate(securitySettingsUpdateBodySchema, request, 'security settings');
    const saved = { ...(await this.#deps.securitySettings.update(input)) };
    await this.#deps.audit.record({
      kind: 'admin.security_settings.updated',
      ...actorFields(actor),
      data: saved,
    });
    return saved;
  }

  /** GetMfaSettingsAsync: the global MFA settings (defaults until an operator saves them). */
  getMfaSettingsAsync(): Promise<SvcMfaSettings> {
    return this.#deps.mfaSettings.getSettings();
  }

  /** UpdateMfaSettingsAsync: replaces the whole record; answers what was persisted. */
  updateMfaSettingsAsync(request: SvcMfaSettingsInput, actor?: AdminActor): Promise<SvcMfaSettings> {
    return this.#deps.mfaSettings.updateSettings(request, actor);
  }

  /** GetOrganizationMfaPolicyAsync: 404 for an unknown organization; the defaults until one is saved. */
  getOrganizationMfaPolicyAsync(organizationId: string): Promise<SvcOrganizationMfaPolicy> {
    return this.#deps.mfaSettings.getOrganizationPolicy(organizationId);
  }

  /** UpdateOrganizationMfaPolicyAsync: replaces the organization's policy; answers what was persisted. */
  updateOrganizationMfaPolicyAsync(
    organizationId: string,
    request: SvcOrganizationMfaPolicyInput,
    actor?: AdminActor,
  ): Promise<SvcOrganizationMfaPolicy> {
    return this.#deps.mfaSettings.updateOrganizationPolicy(organizationId, request, actor);
  }

  /**
   * CreateOidcConnectionAsync: SPEC.md's connection input (plus `organizationId` and `enabled`, default
   * true). The provider type's rules are checked (400 naming each field), an Apple key must be an EC
   * P-256 PKCS#8 key, `{connectionId}` in the callback URIs becomes the new id, and the secrets are
   * sealed with the master key. The answer never carries a secret, only `clientSecretSet` and
   * `applePrivateKeySet`.
   */
  async createOidcConnectionAsync(
    request: CreateOidcConnectionBody,
    actor?: AdminActor,
  ): Promise<SvcOidcConnection> {
    const input = validate(createOidcConnectionBodySchema, request, 'OIDC connection');
    return toSvcOidcConnection(await this.#deps.oidcConnections.create(input, actor));
  }

  /** One OIDC connection; a 404 for an unknown id. */
  async getOidcConnectionAsync(connectionId: string): Promise<SvcOidcConnection> {
    const { id } = validate(oidcConnectionPathSchema, { id: connectionId }, 'connection id');
    return toSvcOidcConnection(await this.#deps.oidcConnections.get(id));
  }

  /** OIDC connections, newest first. */
  async listOidcConnectionsAsync(request: SvcPageRequest = {}): Promise<Page<SvcOidcConnection>> {
    const page = await this.#deps.oidcConnections.list(validate(pageQuerySchema, request, 'page request'));
    return { data: page.data.map(toSvcOidcConnection), nextCursor: page.nextCursor };
  }

  /**
   * Replaces an OIDC connection's settings (PUT): the whole input again, with the same `providerType`;
   * omitted secrets and an omitted `enabled` keep their values.
   */
  async updateOidcConnectionAsync(
    connectionId: string,
    request: UpdateOidcConnectionBody,
    actor?: AdminActor,
  ): Promise<SvcOidcConnection> {
    const { id } = validate(oidcConnectionPathSchema, { id: connectionId }, 'connection id');
    const input = validate(updateOidcConnectionBodySchema, request, 'OIDC connection');
    return toSvcOidcConnection(await this.#deps.oidcConnections.update(id, input, actor));
  }

  /** Enables an OIDC connection (idempotent). */
  enableOidcConnectionAsync(connectionId: string, actor?: AdminActor): Promise<SvcOidcConnection> {
    return this.#setOidcConnectionEnabled(connectionId, true, actor);
  }

  /** Disables an OIDC connection (idempotent): sign-in through it stops on every node at once. */
  disableOidcConnectionAsync(connectionId: string, actor?: AdminActor): Promise<SvcOidcConnection> {
    return this.#setOidcConnectionEnabled(connectionId, false, actor);
  }

  /** Deletes an OIDC connection with its sealed secrets; a 404 for an unknown id. */
  async deleteOidcConnectionAsync(
    connectionId: string,
    actor?: AdminActor,
  ): Promise<SvcOidcConnectionDeleteResult> {
    const { id } = validate(oidcConnectionPathSchema, { id: connectionId }, 'connection id');
    await this.#deps.oidcConnections.delete(id, actor);
    return { deleted: true };
  }

  async #setOidcConnectionEnabled(
    connectionId: string,
    enabled: boolean,
    actor: AdminActor | undefined,
  ): Promise<SvcOidcConnection> {
    const { id } = validate(oidcConnectionPathSchema, { id: connectionId }, 'connection id');
    return toSvcOidcConnection(await this.#deps.oidcConnections.setEnabled(id, enabled, actor));
  }
}

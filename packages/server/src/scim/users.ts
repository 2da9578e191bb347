import { emailSchema, hasAsciiLocalPart } from '@svc/contract';
import type { Clock } from '../kernel/clock.js';
import type { ScimAccounts, ScimAccountScope } from './accounts.js';
import type { ScimDirectoryEvents } from './directory-events.js';
import { ScimError, scimNotFound } from './errors.js';
import { parseEqFilter } from './filter.js';
import { applyPatch, parsePatchBody } from './patch.js';
import type {
  ScimConnectionRecord,
  ScimGroupRepository,
  ScimPage,
  ScimPageQuery,
  ScimUserRecord,
  ScimUserRepository,
} from './repository.js';
import { userAttributesJson } from './representation.js';
import { couldBeResourceId } from './resource-id.js';
import { EXTENSION_SCHEMAS } from './schema-names.js';
import type { ScimSyncEvents } from './sync-events.js';
import {
  accountDisplayName,
  accountEmail,
  parseUserAttributes,
  emailMatch,
  userEmails,
  type ScimUserAttributes,
} from './user-resource.js';

export interface ScimUsersDeps {
  readonly users: ScimUserRepository;
  readonly groups: ScimGroupRepository;
  readonly accounts: ScimAccounts;
  readonly events: ScimDirectoryEvents;
  readonly syncEvents: ScimSyncEvents;
  readonly clock: Clock;
}

const FILTERABLE = ['id', 'userName', 'externalId', 'emails.value'] as const;

/** Why a create did not link an existing account, for the IdP (409) and the sync event. */
const LINK_REFUSED =
  'An account with this email address exists and is not verified: the user joins this organization once ' +
  'the account’s owner verifies the address; send the user again then.';

function scopeOf(connection: ScimConnectionRecord): ScimAccountScope {
  return { organizationId: connection.organizationId, connectionId: connection.id };
}

function uniqueness(detail: string): ScimError {
  return new ScimError(409, detail, 'uniqueness');
}

/**
 * The Svc account address of a SCIM user; without a valid one the user cannot be provisioned (400). One
 * that is not ASCII before the @ is refused, never matched to an account by folding it
 * (docs/decisions/admin-email-identity-ascii-exact.md).
 */
function validEmail(attributes: ScimUserAttributes): string {
  const address = accountEmail(attributes);
  const parsed = emailSchema.safeParse(address);
  if (!parsed.success) {
    throw new ScimError(
      400,
      hasAsciiLocalPart(address)
        ? 'A user needs an email address: a valid address in emails, or a userName that is one.'
        : "The user's email address is not ASCII before the @, which Svc does not accept for an account: " +
            'send an address whose part before the @ is ASCII.',
      'invalidValue',
    );
  }
  return parsed.data;
}

function stored(attributes: ScimUserAttributes): Record<string, unknown> {
  const rest: Record<string, unknown> = { ...attributes };
  delete rest.userName;
  delete rest.active;
  delete rest.externalId;
  return rest;
}

/**
 * SCIM Users of one connection (docs/reference/scim.md "Users are accounts and memberships"): a user is a Svc
 * account with a membership in the connection's organization, found or created by its address, and the SCIM
 * resource the IdP sent, which is what the connection reads back; it sees only its own users (RFC 7644 §6).
 * userName and externalId are unique per connection (409 `uniqueness`). `active: false`
 * and DELETE deprovision for that organization only (docs/reference/scim.md "Users are accounts and
 * memberships"): the membership is deactivated, the user's sessions in the organization revoked, and the user
 * removed from the connection's groups (published to the directory subscribers before the answer).
 */
export class ScimUsers {
  readonly #deps: ScimUsersDeps;

  constructor(deps: ScimUsersDeps) {
    this.#deps = deps;
  }

  async create(connection: ScimConnectionRecord, body: unknown): Promise<ScimUserRecord> {
    const attributes = parseUserAttributes(body);
    const email = validEmail(attributes);
    const { users, accounts, clock } = this.#deps;
    const taken = await users.list(
      connection.id,
      { attribute: 'userName', value: attributes.userName },
      { startIndex: 1, count: 1 },
    );
    if (taken.totalResults > 0) throw uniqueness(`A user with userName '${attributes.userName}' exists.`);
    const account = await this.#account(connection, attributes, email);
    const now = clock.now();
    const record: ScimUserRecord = {
      connectionId: connection.id,
      userId: account.id,
      userName: attributes.userName,
      externalId: attributes.externalId ?? null,
      active: attributes.active ?? true,
      attributes: stored(attributes),
      createdUser: account.created,
      createdAt: now,
      updatedAt: now,
    };
    const inserted = await users.insert(record, userEmails(attributes));
    if (inserted === 'taken') {
      throw uniqueness('The user, its userName or its externalId is already provisioned by this connection.');
    }
    if (record.active) await accounts.activateMembership(connection.organizationId, record.userId);
    await this.#deps.syncEvents.record({
      connectionId: connection.id,
      kind: 'scim.user.created',
      resourceType: 'User',
      resourceId: record.userId,
      data: { linkedExistingAccount: !account.created },
    });
    return record;
  }

  async get(connection: ScimConnectionRecord, id: string): Promise<ScimUserRecord> {
    const found = couldBeResourceId(id) ? await this.#deps.users.find(connection.id, id) : undefined;
    if (found === undefined) throw scimNotFound('User', id);
    return found;
  }

  list(
    connection: ScimConnectionRecord,
    filter: string | undefined,
    page: ScimPageQuery,
  ): Promise<ScimPage<ScimUserRecord>> {
    const match = parseEqFilter(filter, FILTERABLE);
    return this.#deps.users.list(
      connection.id,
      match?.attribute === 'emails.value' ? emailMatch(match.value, match.type) : match,
      page,
    );
  }

  /** PUT: the body replaces the user's attributes. */
  async replace(connection: ScimConnectionRecord, id: string, body: unknown): Promise<ScimUserRecord> {
    const current = await this.get(connection, id);
    return this.#write(connection, current, parseUserAttributes(body));
  }

  /** PATCH: the operations applied to the current attributes, then written as a PUT would be. */
  async patch(connection: ScimConnectionRecord, id: string, body: unknown): Promise<ScimUserRecord> {
    const operations = parsePatchBody(body);
    const current = await this.get(connection, id);
    const patched = applyPatch(userAttributesJson(current), operations, EXTENSION_SCHEMAS.User);
    return this.#write(connection, current, parseUserAttributes(patched));
  }

  /** DELETE: deprovisioned for the organization, and the SCIM user gone (a later GET is 404). */
  async delete(connection: ScimConnectionRecord, id: string): Promise<void> {
    const current = await this.get(connection, id);
    if (current.active) await this.#deprovision(connection, current.userId);
    else await this.#leaveGroups(connection, current.userId);
    await this.#deps.users.delete(connection.id, id);
    await this.#deps.syncEvents.record({
      connectionId: connection.id,
      kind: 'scim.user.deleted',
      resourceType: 'User',
      resourceId: id,
    });
  }

  /**
   * The account a new SCIM user maps to: a new one, or the existing account of the address when its
   * address is verified, no one beyond this connection holds it, or the organization's domain claim
   * claims it. Otherwise the create is refused (409) with a failed sync event, and the existing account
   * is left as it is.
   */
  async #account(
    connection: ScimConnectionRecord,
    attributes: ScimUserAttributes,
    email: string,
  ): Promise<{ readonly id: string; readonly created: boolean }> {
    const { accounts } = this.#deps;
    const existing = await accounts.findUserByEmail(email);
    if (existing === undefined) {
      const created = await accounts.createUser({
        displayName: accountDisplayName(attributes),
        email,
        organizationId: connection.organizationId,
      });
      if (created === 'taken') throw uniqueness('The email address belongs to another account.');
      return { id: created, created: true };
    }
    const scope = scopeOf(connection);
    if (
      !existing.emailVerified &&
      (await accounts.heldByOthers(existing.id, scope)) &&
      !(await accounts.claimUnderDomain(existing.id, email, scope))
    ) {
      await this.#deps.syncEvents.record({
        connectionId: connection.id,
        kind: 'scim.user.link_refused',
        outcome: 'failed',
        resourceType: 'User',
        message: LINK_REFUSED,
        data: { userName: attributes.userName, reason: 'account_unverified' },
      });
      throw uniqueness(LINK_REFUSED);
    }
    return { id: existing.id, created: false };
  }

  async #write(
    connection: ScimConnectionRecord,
    current: ScimUserRecord,
    attributes: ScimUserAttributes,
  ): Promise<ScimUserRecord> {
    const email = validEmail(attributes);
    const next: ScimUserRecord = {
      ...current,
      userName: attributes.userName,
      externalId: attributes.externalId ?? null,
      active: attributes.active ?? current.active,
      attributes: stored(attributes),
      updatedAt: this.#deps.clock.now(),
    };
    // Only an account this connection created, and no one else holds, follows the IdP's name and
    // address; otherwise the change stays on this connection's record (RFC 7644 §6).
    if (
      current.createdUser &&
      !(await this.#deps.accounts.heldByOthers(current.userId, scopeOf(connection)))
    ) {
      const updated = await this.#deps.accounts.updateUser(current.userId, {
        displayName: accountDisplayName(attributes),
        email,
      });
      if (updated === 'taken') throw uniqueness('The email address belongs to another account.');
    }
    const replaced = await this.#deps.users.replace(next, userEmails(attributes));
    if (replaced === 'taken')
      throw uniqueness(`The userName '${next.userName}' or the externalId is another user's.`);
    if (replaced === undefined) throw scimNotFound('User', current.userId);
    if (current.active && !replaced.active) {
      await this.#deprovision(connection, replaced.userId);
    } else if (!current.active && replaced.active) {
      await this.#deps.accounts.activateMembership(connection.organizationId, replaced.userId);
      await this.#event(connection, 'scim.user.reactivated', replaced.userId);
    }
    await this.#event(connection, 'scim.user.updated', replaced.userId);
    return replaced;
  }

  async #deprovision(connection: ScimConnectionRecord, userId: string): Promise<void> {
    await this.#leaveGroups(connection, userId);
    await this.#deps.accounts.endMembership(connection.organizationId, userId);
    await this.#event(connection, 'scim.user.deprovisioned', userId);
  }

  /** Removes the user from every group of the connection, each removal published before the answer. */
  async #leaveGroups(connection: ScimConnectionRecord, userId: string): Promise<void> {
    const { groups, events } = this.#deps;
    for (const group of await groups.groupsOf(connection.id, userId)) {
      const members = (await groups.members([group.id])).get(group.id) ?? [];
      const remaining = members.filter((member) => member !== userId);
      await groups.replace({ ...group, updatedAt: this.#deps.clock.now() }, remaining);
      await events.membershipChanged({
        connectionId: connection.id,
        organizationId: connection.organizationId,
        group: { id: group.id, displayName: group.displayName, externalId: group.externalId },
        addedUserIds: [],
        removedUserIds: [userId],
        memberIds: remaining,
        pushed: false,
        deleted: false,
      });
    }
  }

  #event(
    connection: ScimConnectionRecord,
    kind: 'scim.user.updated' | 'scim.user.deprovisioned' | 'scim.user.reactivated',
    userId: string,
  ): Promise<void> {
    return this.#deps.syncEvents.record({
      connectionId: connection.id,
      kind,
      resourceType: 'User',
      resourceId: userId,
    });
  }
}

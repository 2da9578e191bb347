import type { ConnectionListInput, OrganizationRef, Page, PageQuery } from '@svc/contract';
import type { Taken } from '../directory/repository.js';

/** Who owns a connection's configuration: the operator API (`dashboard`) or `createSvc({ scim })` (`code`). */
export type ScimConnectionOwner = 'dashboard' | 'code';

/** A stored SCIM connection. Times are epoch milliseconds. */
export interface ScimConnectionRecord {
  readonly id: string;
  readonly organizationId: string;
  readonly displayName: string;
  readonly enabled: boolean;
  /** SHA-256 hex of the bearer token. */
  readonly tokenHash: string;
  readonly grantBoundaryResourceId: string | null;
  readonly owner: ScimConnectionOwner;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** A connection found by its token, and whether its organization is active (read with it). */
export interface ScimBearerConnection {
  readonly connection: ScimConnectionRecord;
  readonly organizationActive: boolean;
}

/** What an update writes; an omitted field keeps its value. */
export type ScimConnectionChanges = Partial<
  Pick<ScimConnectionRecord, 'displayName' | 'enabled' | 'tokenHash' | 'grantBoundaryResourceId'>
>;

/** An entry of the console-wide list: the connection and the organization it belongs to. */
export interface ListedScimConnection {
  readonly connection: ScimConnectionRecord;
  readonly organization: OrganizationRef;
}

/**
 * An update's answer when the database refused it: `enabled_elsewhere` when another connection of the
 * organization is enabled (one enabled per organization, a partial unique index).
 */
export type ScimConnectionConflict = 'enabled_elsewhere';

export interface ScimConnectionRepository {
  /** Inserts the connection; 'enabled_elsewhere' when it is enabled and another one of its organization is. */
  insert(record: ScimConnectionRecord): Promise<true | ScimConnectionConflict>;
  findById(id: string): Promise<ScimConnectionRecord | undefined>;
  /** The connection a bearer token names, with whether its organization is active (one query). */
  findByTokenHash(tokenHash: string): Promise<ScimBearerConnection | undefined>;
  listForOrganization(organizationId: string, query: PageQuery): Promise<Page<ScimConnectionRecord>>;
  /** Every organization's connections (or one's, enabled or not), newest first, with their organization. */
  list(query: ConnectionListInput): Promise<Page<ListedScimConnection>>;
  /** The connections whose grant boundary is one of these FGA resources (a few ancestors of a resource). */
  listByGrantBoundary(resourceIds: readonly string[]): Promise<ScimConnectionRecord[]>;
  /** Applies the changes and sets updatedAt; undefined when unknown. */
  update(
    id: string,
    changes: ScimConnectionChanges,
    now: number,
  ): Promise<ScimConnectionRecord | ScimConnectionConflict | undefined>;
}

/** A user a connection provisioned: the Svc user id is the SCIM id (docs/reference/scim.md). */
export interface ScimUserRecord {
  readonly connectionId: string;
  readonly userId: string;
  readonly userName: string;
  readonly externalId: string | null;
  readonly active: boolean;
  /** The SCIM attributes the IdP last sent, without id, meta and schemas. */
  readonly attributes: Readonly<Record<string, unknown>>;
  /** Whether this connection created the Svc user (rather than linking an existing account). */
  readonly createdUser: boolean;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/**
 * An address of a user's `emails`: its email key (docs/reference/organizations.md "Email identity") and its
 * type in lower case ('' without one).
 */
export interface ScimUserEmail {
  readonly key: string;
  readonly type: string;
}

/**
 * The exact-match look-ups docs/reference/scim.md "Protocol rules" allows for Users. `emails.value` matches
 * any of the user's addresses by its key, and only one of that type when the filter names one (`emails[type
 * eq "work"].value eq "…"`), both as {@link ScimUserEmail} holds them.
 */
export type ScimUserMatch =
  | { readonly attribute: 'id' | 'userName' | 'externalId'; readonly value: string }
  | { readonly attribute: 'emails.value'; readonly value: string; readonly type?: string }
  | undefined;

/** One page of a SCIM list: RFC 7644 §3.4.2.4 startIndex (1-based) and count. */
export interface ScimPageQuery {
  readonly startIndex: number;
  readonly count: number;
}

export interface ScimPage<T> {
  readonly totalResults: number;
  readonly resources: readonly T[];
}

export interface ScimUserRepository {
  /**
   * Inserts the row with the addresses the `emails.value` filter is to match; 'taken' when the userName
   * or externalId is another user's of the connection.
   */
  insert(record: ScimUserRecord, emails: readonly ScimUserEmail[]): Promise<true | Taken>;
  find(connectionId: string, userId: string): Promise<ScimUserRecord | undefined>;
  /** Users of the connection matching the filter (all without one), oldest first. */
  list(connectionId: string, match: ScimUserMatch, page: ScimPageQuery): Promise<ScimPage<ScimUserRecord>>;
  /** Replaces the row's SCIM fields and addresses; 'taken' on a unique key, undefined when unknown. */
  replace(
    record: ScimUserRecord,
    emails: readonly ScimUserEmail[],
  ): Promise<ScimUserRecord | Taken | undefined>;
  /** Deletes the row and the user's memberships of the connection's groups; false when unknown. */
  delete(connectionId: string, userId: string): Promise<boolean>;
  /** Which of the ids are users of the connection. */
  existing(connectionId: string, userIds: readonly string[]): Promise<Set<string>>;
}

export interface ScimGroupRecord {
  readonly id: string;
  readonly connectionId: string;
  readonly displayName: string;
  readonly externalId: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export type ScimGroupMatch =
  { readonly attribute: 'id' | 'displayName' | 'externalId'; readonly value: string } | undefined;

export interface ScimGroupRepository {
  /** Inserts the group with its members; 'taken' when the displayName or externalId is another group's. */
  insert(record: ScimGroupRecord, memberIds: readonly string[]): Promise<true | Taken>;
  find(connectionId: string, groupId: string): Promise<ScimGroupRecord | undefined>;
  list(connectionId: string, match: ScimGroupMatch, page: ScimPageQuery): Promise<ScimPage<ScimGroupRecord>>;
  /** The member user ids of each group. */
  members(groupIds: readonly string[]): Promise<Map<string, string[]>>;
  /** Replaces the group's fields and members; 'taken' on a unique key, undefined when unknown. */
  replace(
    record: ScimGroupRecord,
    memberIds: readonly string[],
  ): Promise<ScimGroupRecord | Taken | undefined>;
  /** Deletes the group and its members; false when unknown. */
  delete(connectionId: string, groupId: string): Promise<boolean>;
  /** The connection's groups the user is a member of. */
  groupsOf(connectionId: string, userId: string): Promise<ScimGroupRecord[]>;
  /** The connection's groups of each user (every user given is a key, with no groups at least). */
  groupsOfUsers(connectionId: string, userIds: readonly string[]): Promise<Map<string, ScimGroupRecord[]>>;
}

export type ScimSyncOutcome = 'succeeded' | 'failed';

export interface ScimSyncEventRecord {
  readonly id: string;
  readonly connectionId: string;
  readonly kind: string;
  readonly outcome: ScimSyncOutcome;
  readonly resourceType: 'User' | 'Group' | null;
  readonly resourceId: string | null;
  readonly message: string | null;
  readonly data: Readonly<Record<string, unknown>>;
  readonly createdAt: number;
}

export interface ScimSyncEventRepository {
  insert(event: ScimSyncEventRecord): Promise<void>;
  /** The connection's events, newest first, optionally of one outcome. */
  list(
    connectionId: string,
    query: PageQuery & { readonly outcome?: ScimSyncOutcome | undefined },
  ): Promise<Page<ScimSyncEventRecord>>;
}

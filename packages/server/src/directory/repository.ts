import type { ApplicationAccessMode, Page, TokenEndpointAuthMethod } from '@svc/contract';

/**
 * The storage the directory owns (users, organizations, memberships, clients). Times are epoch milliseconds. Inserts that can hit a unique key
 * answer `false` instead of throwing, so that the domain decides what a duplicate means (409, retry
 * with the next slug…) without knowing any database's error codes.
 */

/** A paged list request: newest first, keyset on (createdAt, id); `cursor` is the previous page's. */
export interface ListQuery {
  readonly limit: number;
  readonly cursor?: string | undefined;
}

/** A list narrowed by every given field (AND): `search` as each list defines it, `active` the record's. */
export interface RecordListFilter {
  readonly search?: string | undefined;
  readonly active?: boolean | undefined;
}

/**
 * A search among users: an email key that starts with `emailKeyPrefix` (the text with its ASCII letters
 * upper-cased, as keys are), a display name that contains `text` in any case, or the id `text`.
 */
export interface UserSearch {
  readonly text: string;
  readonly emailKeyPrefix: string;
}

/** The users an operator lists: every given field must match. */
export interface UserListFilter {
  readonly search?: UserSearch | undefined;
  /** Users with an active membership in this organization. */
  readonly organizationId?: string | undefined;
  readonly active?: boolean | undefined;
  readonly emailKey?: string | undefined;
}

/** A user as lists of other records show it beside them. */
export type UserSummary = Pick<UserRecord, 'id' | 'email' | 'displayName'>;
/** What a list shows of an organization beside its other records. */
export type OrganizationSummary = Pick<OrganizationRecord, 'id' | 'name' | 'slug'>;

export interface OrganizationRecord {
  readonly id: string;
  readonly name: string;
  readonly slug: string;
  readonly primaryDomain: string | null;
  readonly active: boolean;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface OrganizationRepository {
  /** Inserts the organization; false when its slug is taken. */
  insertIfSlugFree(organization: OrganizationRecord): Promise<boolean>;
  findById(id: string): Promise<OrganizationRecord | undefined>;
  findBySlug(slug: string): Promise<OrganizationRecord | undefined>;
  /** The slugs equal to `base` or starting with `base-`, to pick the next free suffix in one query. */
  slugsLike(base: string): Promise<string[]>;
  /** Newest first; `search`: a name that contains it (any case), a slug that starts with it, the id. */
  list(query: ListQuery & RecordListFilter): Promise<Page<OrganizationRecord>>;
  /** Applies the changes and sets updatedAt; 'taken' when the new slug is another's, undefined when unknown. */
  update(
    id: string,
    changes: OrganizationChanges,
    now: number,
  ): Promise<OrganizationRecord | Taken | undefined>;
}

/** An update's answer when a unique key (an email, a slug) belongs to another record. */
export type Taken = 'taken';

/** The fields an update sets; an omitted field keeps its value. */
export type OrganizationChanges = Partial<
  Pick<OrganizationRecord, 'name' | 'slug' | 'primaryDomain' | 'active'>
>;

export interface UserRecord {
  readonly id: string;
  readonly displayName: string;
  /** As typed (trimmed); shown and used for delivery. Null for an account signed up by phone. */
  readonly email: string | null;
  /** The lookup key (docs/reference/organizations.md "Email identity"); unique when set. */
  readonly emailKey: string | null;
  readonly emailVerified: boolean;
  readonly passwordHash: string | null;
  readonly isOperator: boolean;
  readonly active: boolean;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** What a signup stores beside the user record. */
export interface NewUserExtras {
  /** E.164; unique when set. */
  readonly phoneE164?: string | null;
  readonly phoneVerified?: boolean;
  /** The signup's custom fields, a JSON object (docs/reference/organizations.md "Signup custom fields"). */
  readonly customFields?: Readonly<Record<string, unknown>> | null;
}

/** A user with an address: every user found by its email key. */
export type EmailUserRecord = UserRecord & { readonly email: string; readonly emailKey: string };

export interface UserRepository {
  /**
   * Inserts the user; false when the email key (or the phone number in `extras`) is taken. `extras` are
   * what a passwordless signup knows beside the record: a verified phone number and custom fields.
   */
  insertIfEmailFree(user: UserRecord, extras?: NewUserExtras): Promise<boolean>;
  findById(id: string): Promise<UserRecord | undefined>;
  findByEmailKey(emailKey: string): Promise<EmailUserRecord | undefined>;
  /** Marks the user an operator; returns the updated user, or undefined when there is no such user. */
  setOperator(id: string, now: number): Promise<UserRecord | undefined>;
  /** Newest first. */
  list(query: ListQuery & UserListFilter): Promise<Page<UserRecord>>;
  /**
   * Applies the changes and sets updatedAt; 'taken' when the new email key is another's. A change that
   * takes the operator flag from an active operator (`isOperator: false` or `active: false`) is
   * 'last_operator', with nothing written, when no other active operator would be left; concurrent ones
   * cannot both pass.
   */
  update(
    id: string,
    changes: UserChanges,
    now: number,
  ): Promise<UserRecord | Taken | LastOperator | undefined>;
}

/** An update's answer when it would leave no active operator. */
export type LastOperator = 'last_operator';

/** The fields a user update sets (an email always with its key); an omitted field keeps its value. */
export type UserChanges = Partial<
  Pick<UserRecord, 'displayName' | 'emailVerified' | 'passwordHash' | 'isOperator' | 'active'> & {
    readonly email: string;
    readonly emailKey: string;
  }
>;

export interface MembershipRecord {
  readonly id: string;
  readonly organizationId: string;
  readonly userId: string;
  readonly role: string;
  readonly active: boolean;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** A membership with its user, as an organization's member list shows it. */
export type OrganizationMemberRecord = MembershipRecord & { readonly user: UserSummary };

/** A membership with its organization, as a user's membership list shows it. */
export type UserMembershipRecord = MembershipRecord & {
  readonly organization: Pick<OrganizationRecord, 'id' | 'name' | 'slug'>;
};

/** An organization's members an operator lists: `search` among the users, `active` the membership's. */
export interface MemberListFilter {
  readonly search?: UserSearch | undefined;
  readonly active?: boolean | undefined;
}

/** An organization a user belongs to, with the role held there. */
export interface UserOrganizationRecord {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
  readonly role: string;
}

export interface MembershipRepository {
  /**
   * Inserts the membership or, when the organization and user already have one, sets its role,
   * reactivates it and keeps its id and createdAt. Atomic (one upsert), so concurrent calls agree.
   */
  upsert(membership: MembershipRecord): Promise<MembershipRecord>;
  find(organizationId: string, userId: string): Promise<MembershipRecord | undefined>;
  /** Active memberships in active organizations, ordered by organization name. */
  listUserOrganizations(userId: string): Promise<UserOrganizationRecord[]>;
  /** True when the user has an active membership in the organization and the organization is active. */
  hasActiveMembership(userId: string, organizationId: string): Promise<boolean>;
  findById(id: string): Promise<MembershipRecord | undefined>;
  /** The organization's memberships, newest first, with their users (read in the same query). */
  listForOrganization(
    organizationId: string,
    query: ListQuery & MemberListFilter,
  ): Promise<Page<OrganizationMemberRecord>>;
  /** The user's memberships in any state, newest first, with their organizations. */
  listForUser(userId: string, query: ListQuery): Promise<Page<UserMembershipRecord>>;
  /** Applies the changes and sets updatedAt; undefined when there is no such membership. */
  update(id: string, changes: MembershipChanges, now: number): Promise<MembershipRecord | undefined>;
}

/** The fields a membership update sets; an omitted field keeps its value. */
export type MembershipChanges = Partial<Pick<MembershipRecord, 'role' | 'active'>>;

export interface ClientRecord {
  readonly id: string;
  readonly clientId: string;
  readonly name: string;
  readonly audience: string;
  readonly redirectUris: readonly string[];
  /** Where RP-initiated logout (`/session/end`) may return to; exact strings. */
  readonly postLogoutRedirectUris: readonly string[];
  readonly isFirstParty: boolean;
  readonly allowedScopes: readonly string[];
  readonly allowedResources: readonly string[];
  readonly tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  /** SHA-256 hex of the secret of a confidential client; null for public clients. */
  readonly clientSecretHash: string | null;
  readonly allowDeviceAuthorization: boolean;
  readonly allowClientCredentials: boolean;
  readonly active: boolean;
  /** Who may use it (applications/): its access mode, and how many assignments it has. */
  readonly access: ClientAccess;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** How a client that described itself came to be, and what it said; null when an operator created it. */
  readonly registration: ClientRegistrationMetadata | null;
}

/**
 * A client's access mode and its number of assignments: a check of an `all_organizations` client with
 * none decides from this alone, without reading assignments.
 */
export interface ClientAccess {
  readonly mode: ApplicationAccessMode;
  readonly assignments: number;
}

/** A new client's access: open to every user, no assignments. */
export const OPEN_ACCESS: ClientAccess = { mode: 'all_organizations', assignments: 0 };

/**
 * How a client that described itself came to be: `dynamic`, at `POST /register` (RFC 7591); or
 * `metadata_document`, its id being the URL of its Client ID Metadata Document. The optional RFC 7591
 * §2 metadata is kept as given (null when not given).
 */
export interface ClientRegistrationMetadata {
  readonly method: ClientRegistrationMethod;
  readonly clientUri: string | null;
  readonly logoUri: string | null;
  readonly softwareId: string | null;
  readonly softwareVersion: string | null;
  /** A metadata document's: when it was fetched, and until when that copy is used; null for `dynamic`. */
  readonly document: { readonly fetchedAt: number; readonly freshUntil: number } | null;
  /**
   * When the client first got tokens; null while it never has. Stored apart from the rest (a change of
   * the registration never touches it): ClientRepository.markFirstUse sets it.
   */
  readonly firstUsedAt: number | null;
}

export type ClientRegistrationMethod = 'dynamic' | 'metadata_document';

export interface ClientRepository {
  /** Inserts the client; false when its clientId is taken. */
  insertIfClientIdFree(client: ClientRecord): Promise<boolean>;
  findById(id: string): Promise<ClientRecord | undefined>;
  findByClientId(clientId: string): Promise<ClientRecord | undefined>;
  /** A confidential client whose secret has this SHA-256 hex, if any. */
  findBySecretHash(secretHash: string): Promise<ClientRecord | undefined>;
  /**
   * Newest first; `registration` keeps only the clients of one method, or the operator-made ones;
   * `search` a name that contains it, a clientId that starts with it (any case), the record id.
   */
  list(
    query: ListQuery &
      RecordListFilter & { readonly registration?: ClientRegistrationMethod | 'operator' | undefined },
  ): Promise<Page<ClientRecord>>;
  /** Applies the changes and sets updatedAt; undefined when there is no client with this clientId. */
  update(clientId: string, changes: ClientChanges, now: number): Promise<ClientRecord | undefined>;
  /** Notes a self-described client's first tokens (`registration.firstUsedAt`), once. */
  markFirstUse(clientId: string, now: number): Promise<void>;
  /**
   * Deletes the self-described clients never used, untouched since `before`: active, third party, no
   * first use, no token session, no authorization or device request. Answers their clientIds.
   */
  deleteUnused(before: number): Promise<string[]>;
}

/**
 * The fields a client update sets; an omitted field keeps its value. The clientId never changes; the
 * access mode and assignment count change only through application access (applications/).
 */
export type ClientChanges = Partial<
  Omit<ClientRecord, 'id' | 'clientId' | 'createdAt' | 'updatedAt' | 'access'>
>;

/** Everything the directory's services read and write. */
export interface DirectoryRepositories {
  readonly organizations: OrganizationRepository;
  readonly users: UserRepository;
  readonly memberships: MembershipRepository;
  readonly clients: ClientRepository;
}

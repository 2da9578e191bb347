import type { SvcFgaSubjectRef, SvcFgaSubjectType } from '@svc/contract';

/** The three kinds of definition: resource types, permissions and roles share one shape. */
export type FgaDefinitionKind = 'resource_type' | 'permission' | 'role';

export interface FgaDefinitionRecord {
  readonly id: string;
  readonly kind: FgaDefinitionKind;
  readonly key: string;
  readonly name: string;
  /** A role's permission keys; empty for the other kinds. */
  readonly permissionKeys: readonly string[];
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface FgaResourceRecord {
  readonly id: string;
  readonly typeId: string;
  readonly parentId: string | null;
  readonly name: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** A group, service account or agent (users are accounts of their own). */
export interface FgaSubjectRecord {
  readonly id: string;
  readonly type: Exclude<SvcFgaSubjectType, 'user'>;
  readonly name: string;
  readonly organizationId: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface FgaGroupMemberRecord {
  readonly groupId: string;
  readonly userId: string;
  readonly createdAt: number;
}

export interface FgaGrantRecord {
  readonly id: string;
  readonly subject: SvcFgaSubjectRef;
  readonly roleId: string;
  readonly resourceId: string;
  readonly managedBy: string;
  readonly createdAt: number;
}

/** A subject as GET /subjects lists it. */
export interface FgaSubjectListing {
  readonly type: SvcFgaSubjectType;
  readonly id: string;
  readonly name: string;
  /** A group's organization; null for the other kinds. */
  readonly organizationId: string | null;
  readonly createdAt: number;
}

export interface FgaPage<T> {
  data: T[];
  nextCursor: string | null;
}

export interface FgaPageRequest {
  readonly limit: number;
  readonly cursor?: string | undefined;
}

export interface FgaGrantFilter {
  readonly subjectId?: string | undefined;
  readonly roleId?: string | undefined;
  readonly resourceId?: string | undefined;
  readonly managedBy?: string | undefined;
}

/** What the check reads of a subject: its grants, and for a user its groups' grants. */
export interface FgaSubjectGrants {
  /** Each grant with the group it comes through (null: the subject's own). */
  readonly grants: readonly { readonly grant: FgaGrantRecord; readonly viaGroupId: string | null }[];
}

/** Reads, on the database or inside a write. */
export interface FgaReads {
  findDefinition(kind: FgaDefinitionKind, id: string): Promise<FgaDefinitionRecord | undefined>;
  findDefinitionByKey(kind: FgaDefinitionKind, key: string): Promise<FgaDefinitionRecord | undefined>;
  /** Which of `keys` are permissions. */
  existingPermissionKeys(keys: readonly string[]): Promise<Set<string>>;
  listDefinitions(kind: FgaDefinitionKind, page: FgaPageRequest): Promise<FgaPage<FgaDefinitionRecord>>;
  /** Every role (the check keeps them all: there are few). */
  allRoles(): Promise<FgaDefinitionRecord[]>;
  /** Whether a role lists this permission key. */
  permissionInUse(key: string): Promise<boolean>;
  /** Whether any resource has this type, or any grant this role. */
  definitionInUse(kind: 'resource_type' | 'role', id: string): Promise<boolean>;

  findResource(id: string): Promise<FgaResourceRecord | undefined>;
  /**
   * The resource and its ancestors, itself first and the root last, at most `limit` of them (a
   * longer chain is cut there; the caller knows the depth limit). Empty when there is no such resource.
   */
  ancestorChain(id: string, limit: number): Promise<string[]>;
  /** {@link ancestorChain} of several resources in one query; an unknown resource is left out. */
  ancestorChains(ids: readonly string[], limit: number): Promise<Map<string, string[]>>;
  /** The levels below `id` (0 for a leaf), counting at most `limit`. */
  subtreeHeight(id: string, limit: number): Promise<number>;
  hasChildren(id: string): Promise<boolean>;
  listResources(
    filter: { readonly parentId?: string | null; readonly typeId?: string },
    page: FgaPageRequest,
  ): Promise<FgaPage<FgaResourceRecord>>;

  findSubject(id: string): Promise<FgaSubjectRecord | undefined>;
  userExists(id: string): Promise<boolean>;
  organizationExists(id: string): Promise<boolean>;
  listSubjects(
    type: SvcFgaSubjectType | undefined,
    page: FgaPageRequest,
  ): Promise<FgaPage<FgaSubjectListing>>;
  listGroupMembers(groupId: string, page: FgaPageRequest): Promise<FgaPage<FgaGroupMemberRecord>>;

  findGrant(id: string): Promise<FgaGrantRecord | undefined>;
  findGrantByKey(grant: Omit<FgaGrantRecord, 'id' | 'createdAt'>): Promise<FgaGrantRecord | undefined>;
  listGrants(filter: FgaGrantFilter, page: FgaPageRequest): Promise<FgaPage<FgaGrantRecord>>;
  /** Every grant `managedBy` made, or those of the given subjects: a source's own, unpaged. */
  managedGrants(managedBy: string, subjectIds?: readonly string[]): Promise<FgaGrantRecord[]>;
  /** The subject's grants and, for a user, its groups'. */
  subjectGrants(subject: SvcFgaSubjectRef): Promise<FgaSubjectGrants>;
}

/** Writes; each runs inside {@link FgaRepository.write}. */
export interface FgaWrites extends FgaReads {
  insertDefinition(record: FgaDefinitionRecord): Promise<boolean>;
  updateDefinition(
    id: string,
    changes: { name?: string; permissionKeys?: readonly string[]; updatedAt: number },
  ): Promise<void>;
  deleteDefinition(id: string): Promise<void>;

  insertResource(record: FgaResourceRecord): Promise<void>;
  updateResource(
    id: string,
    changes: { name?: string; parentId?: string | null; updatedAt: number },
  ): Promise<void>;
  deleteResource(id: string): Promise<void>;

  insertSubject(record: FgaSubjectRecord): Promise<void>;
  renameSubject(id: string, name: string, updatedAt: number): Promise<void>;
  /** Deletes the subject with its memberships. */
  deleteSubject(id: string): Promise<void>;
  /** False when the user is a member already. */
  addGroupMember(record: FgaGroupMemberRecord): Promise<boolean>;
  /** False when the user was no member. */
  removeGroupMember(groupId: string, userId: string): Promise<boolean>;

  insertGrant(record: FgaGrantRecord): Promise<void>;
  /** Deletes the grants and answers those deleted. */
  deleteGrants(filter: {
    readonly id?: string;
    readonly ids?: readonly string[];
    readonly subjectId?: string;
    readonly resourceId?: string;
    readonly managedBy?: string;
  }): Promise<FgaGrantRecord[]>;
}

/**
 * The storage of the FGA model. Every write runs in {@link write}: one transaction that first bumps the
 * model's version (which also serializes writers, so two moves cannot make a cycle together) and then
 * runs `work`; checks on every node compare that version to the one their cache was filled at.
 */
export interface FgaRepository extends FgaReads {
  write<T>(work: (tx: FgaWrites) => Promise<T>): Promise<T>;
  /** The model's version: a read of one row by its key, made on every check. */
  version(): Promise<number>;
}

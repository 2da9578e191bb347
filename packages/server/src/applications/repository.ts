import type {
  ApplicationAccessMode,
  AssignmentEffect,
  AssignmentPrincipalType,
  SvcAssignmentPrincipal,
} from '@svc/contract';

/** An operator's allow or deny of one principal for one client. Times are epoch milliseconds. */
export interface AssignmentRecord {
  readonly id: string;
  /** The OAuth client_id. */
  readonly clientId: string;
  readonly principalType: AssignmentPrincipalType;
  /** The user, group, service account, agent or organization; null for a role. */
  readonly principalId: string | null;
  /** The organization of an organization or role assignment; null otherwise. */
  readonly organizationId: string | null;
  /** A role assignment's membership role (lower-case); null otherwise. */
  readonly roleKey: string | null;
  readonly effect: AssignmentEffect;
  readonly createdAt: number;
}

/** The principals an assignment may name, by the table that holds them. */
export type PrincipalKind = 'user' | 'organization' | 'group' | 'service_account' | 'agent';

/** An assignment as the operator lists it: with what its principal is called (null: the record is gone). */
export type NamedAssignmentRecord = AssignmentRecord & { readonly principal: SvcAssignmentPrincipal | null };

/**
 * The storage application access owns. Assignments are keyed by the OAuth client_id; every insert and
 * delete also moves the client's assignment count (ClientRecord.access) in the same write.
 */
export interface ApplicationAccessRepository {
  /** A client's assignments, newest first. */
  listAssignments(clientId: string): Promise<AssignmentRecord[]>;
  /** The same with their principals' names, joined in the same query (the operator's list). */
  listNamedAssignments(clientId: string): Promise<NamedAssignmentRecord[]>;
  /** The assignments of several clients at once (the application lists). */
  listAssignmentsOf(clientIds: readonly string[]): Promise<AssignmentRecord[]>;
  /** Inserts and counts; false when the principal is already assigned on this client. */
  insertAssignment(record: AssignmentRecord): Promise<boolean>;
  /** Deletes and uncounts; the deleted assignment, or undefined when the client has none with this id. */
  deleteAssignment(clientId: string, id: string): Promise<AssignmentRecord | undefined>;
  /** Sets the mode; false when no client has this client_id. */
  setMode(clientId: string, mode: ApplicationAccessMode, now: number): Promise<boolean>;
  /** The FGA user groups `userId` belongs to. */
  userGroupIds(userId: string): Promise<Set<string>>;
  /** The user's role in an organization, when the membership and the organization are active; else null. */
  membershipRole(userId: string, organizationId: string): Promise<string | null>;
  /** The principal of this kind and id, named; undefined when there is none (a group, service account or agent is an FGA subject). */
  findPrincipal(kind: PrincipalKind, id: string): Promise<SvcAssignmentPrincipal | undefined>;
}

/** `<type>:<principal>`: what makes an assignment unique on its client (allow and deny alike). */
export function principalKey(
  record: Pick<AssignmentRecord, 'principalType' | 'principalId' | 'organizationId' | 'roleKey'>,
): string {
  return record.principalType === 'role'
    ? `role:${record.organizationId ?? ''}:${record.roleKey ?? ''}`
    : `${record.principalType}:${record.principalId ?? ''}`;
}

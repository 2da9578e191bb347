import type {
  ApplicationAccessDecision,
  ApplicationAccessMode,
  AssignmentPrincipalType,
  SvcAccessReason,
} from '@svc/contract';
import type { AssignmentRecord } from './repository.js';

/**
 * Who asks to use the application. A user signs in within an organization (`organizationId`, with
 * their membership `role` there) or without one; `groupIds` are the FGA user groups they belong to.
 */
export type AccessSubject =
  | {
      readonly kind: 'user';
      readonly userId: string;
      readonly organizationId: string | null;
      readonly role: string | null;
      readonly groupIds: ReadonlySet<string>;
      readonly isOperator: boolean;
    }
  | { readonly kind: 'service_account' | 'agent'; readonly id: string };

export interface AccessCheck {
  readonly allowed: boolean;
  readonly decision: ApplicationAccessDecision;
  readonly reasons: readonly SvcAccessReason[];
}

/** The decision of `all_organizations` without a deny that names the subject. */
export const OPEN_TO_ALL: AccessCheck = {
  allowed: true,
  decision: 'allowed_by_mode',
  reasons: [{ code: 'all_organizations', message: 'Every user may use the application.' }],
};

/** The assignment types that let a subject in under each selecting mode. */
const GRANTING_TYPES: Partial<Record<ApplicationAccessMode, readonly AssignmentPrincipalType[]>> = {
  selected_organizations: ['organization'],
  selected_users_groups_roles: ['user', 'group', 'role', 'service_account', 'agent'],
};

/** Whether `assignment` names `subject` (in the organization of its sign-in, for organization and role). */
export function assignmentMatches(assignment: AssignmentRecord, subject: AccessSubject): boolean {
  if (subject.kind !== 'user') {
    return assignment.principalType === subject.kind && assignment.principalId === subject.id;
  }
  switch (assignment.principalType) {
    case 'organization':
      return subject.organizationId !== null && assignment.organizationId === subject.organizationId;
    case 'user':
      return assignment.principalId === subject.userId;
    case 'group':
      return assignment.principalId !== null && subject.groupIds.has(assignment.principalId);
    case 'role':
      return (
        subject.organizationId !== null &&
        assignment.organizationId === subject.organizationId &&
        assignment.roleKey === subject.role
      );
    default:
      return false;
  }
}

function describe(assignment: AssignmentRecord): string {
  if (assignment.principalType === 'role') {
    return `role '${assignment.roleKey ?? ''}' in organization ${assignment.organizationId ?? ''}`;
  }
  return `${assignment.principalType.replace('_', ' ')} ${assignment.principalId ?? ''}`;
}

function reason(code: string, message: string, assignment?: AssignmentRecord): SvcAccessReason {
  return assignment === undefined ? { code, message } : { code, message, assignmentId: assignment.id };
}

/**
 * The access decision (docs/reference/application-access.md), pure:
 *
 * 1. `disabled`: nobody.
 * 2. A matching deny assignment: denied, whatever the mode ("an explicit deny always wins").
 * 3. `all_organizations`: allowed. `internal_only`: operators only.
 * 4. `selected_organizations`: a matching organization allow; `selected_users_groups_roles`: a matching
 *    user, group, role (service account, agent) allow. An allow of another type is named in the reasons
 *    as not counting in this mode, so that the check endpoint explains a surprise.
 */
export function decideAccess(
  mode: ApplicationAccessMode,
  assignments: readonly AssignmentRecord[],
  subject: AccessSubject,
): AccessCheck {
  if (mode === 'disabled') {
    return {
      allowed: false,
      decision: 'application_disabled',
      reasons: [reason('application_disabled', 'The application is disabled: nobody may use it.')],
    };
  }
  const matching = assignments.filter((assignment) => assignmentMatches(assignment, subject));
  const deny = matching.find((assignment) => assignment.effect === 'deny');
  if (deny !== undefined) {
    return {
      allowed: false,
      decision: 'denied_by_assignment',
      reasons: [reason('explicit_deny', `A deny assignment names ${describe(deny)}.`, deny)],
    };
  }
  if (mode === 'all_organizations') return OPEN_TO_ALL;
  if (mode === 'internal_only') {
    return subject.kind === 'user' && subject.isOperator
      ? {
          allowed: true,
          decision: 'allowed_by_mode',
          reasons: [reason('internal_only', 'The application is internal and the user is an operator.')],
        }
      : {
          allowed: false,
          decision: 'not_internal',
          reasons: [reason('internal_only', 'The application is internal: only operators may use it.')],
        };
  }
  const granting = GRANTING_TYPES[mode] ?? [];
  const allows = matching.filter((assignment) => assignment.effect === 'allow');
  const allow = allows.find((assignment) => granting.includes(assignment.principalType));
  if (allow !== undefined) {
    return {
      allowed: true,
      decision: 'allowed_by_assignment',
      reasons: [reason('assigned', `An allow assignment names ${describe(allow)}.`, allow)],
    };
  }
  const ignored = allows.map((assignment) =>
    reason(
      'assignment_not_counted',
      `An allow assignment names ${describe(assignment)}, but in mode ${mode} only ${granting.join(', ')} assignments let users in.`,
      assignment,
    ),
  );
  return {
    allowed: false,
    decision: 'not_assigned',
    reasons: [
      reason(
        'not_assigned',
        mode === 'selected_organizations'
          ? 'No allow assignment names the organization of this sign-in.'
          : 'No allow assignment names this user, their groups or their role.',
      ),
      ...ignored,
    ],
  };
}

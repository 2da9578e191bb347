import type { SvcOrganizationOption } from '@svc/contract';
import type { ClientRecord, ClientRepository, UserRepository } from '../directory/repository.js';
import type { AuditLog } from '../audit/audit-log.js';
import { decideAccess, OPEN_TO_ALL, type AccessCheck, type AccessSubject } from './access-policy.js';
import { applicationAccessDeniedError } from './errors.js';
import type { ApplicationAccessRepository, AssignmentRecord } from './repository.js';

export interface ApplicationAccessDeps {
  readonly repository: ApplicationAccessRepository;
  readonly clients: Pick<ClientRepository, 'findByClientId'>;
  readonly users: Pick<UserRepository, 'findById'>;
  readonly audit: AuditLog;
}

/** A user asking to use a client, in the organization of their sign-in (null: without one). */
export interface UserAccessRequest {
  readonly userId: string;
  readonly organizationId: string | null;
  /** Whether the user is an operator, when the caller has the user at hand (read otherwise). */
  readonly isOperator?: boolean;
}

/** Where a refused use was attempted, for the audit event. */
export interface AccessContext {
  /** The flow or grant: 'authorize', 'direct', 'refresh_token', 'authorization_code', 'device_code'… */
  readonly flow: string;
  readonly ipAddress?: string | null | undefined;
}

/**
 * Application access at run time (docs/reference/application-access.md "Where it is checked",
 * "Answers": checks run when a concrete application and subject are known; the public denial text is
 * generic while audit events and the access-check endpoint carry detail). A client in the default mode
 * without assignments is decided from its own row: no read on the token path. Nothing is cached, so an
 * operator's change applies to the next sign-in and the next refresh on every node.
 */
export class ApplicationAccess {
  readonly #deps: ApplicationAccessDeps;

  constructor(deps: ApplicationAccessDeps) {
    this.#deps = deps;
  }

  /** The decision for a user at a client, with its reasons. */
  async checkUser(client: ClientRecord, request: UserAccessRequest): Promise<AccessCheck> {
    if (isOpen(client)) return OPEN_TO_ALL;
    const assignments = await this.#assignments(client);
    return decideAccess(
      client.access.mode,
      assignments,
      await this.#userSubject(client, assignments, request),
    );
  }

  /** The decision for a service account or an agent (the check endpoint; no sign-in names one yet). */
  async checkMachine(
    client: ClientRecord,
    kind: 'service_account' | 'agent',
    id: string,
  ): Promise<AccessCheck> {
    if (isOpen(client)) return OPEN_TO_ALL;
    return decideAccess(client.access.mode, await this.#assignments(client), { kind, id });
  }

  /**
   * Null when the user may use the client; otherwise the refusal, recorded as an
   * `application.access.denied` audit event with its decision and reasons (the caller answers generically).
   */
  async denial(
    client: ClientRecord,
    request: UserAccessRequest,
    context: AccessContext,
  ): Promise<AccessCheck | null> {
    const check = await this.checkUser(client, request);
    if (check.allowed) return null;
    await this.#deps.audit.record({
      kind: 'application.access.denied',
      actorType: 'user',
      actorId: request.userId,
      userId: request.userId,
      clientId: client.clientId,
      ...(request.organizationId === null ? {} : { organizationId: request.organizationId }),
      ...(context.ipAddress === undefined || context.ipAddress === null
        ? {}
        : { ipAddress: context.ipAddress }),
      data: {
        flow: context.flow,
        decision: check.decision,
        reasons: check.reasons.map((reason) => reason.code),
        ...(check.reasons[0]?.assignmentId === undefined
          ? {}
          : { assignmentId: check.reasons[0].assignmentId }),
      },
    });
    return check;
  }

  /** {@link denial}, thrown as 403 access_denied with the generic text: for sign-ins and approvals. */
  async requireUser(client: ClientRecord, request: UserAccessRequest, context: AccessContext): Promise<void> {
    if ((await this.denial(client, request, context)) !== null) throw applicationAccessDeniedError();
  }

  /**
   * The organizations a user may choose for a client: those where the client lets them in. When none
   * does, all of them, so that the sign-in goes on as before and is refused (and audited) at its end
   * rather than turned into a sign-in without an organization that an organization's deny would miss.
   */
  async organizationChoices(
    clientId: string,
    userId: string,
    options: readonly SvcOrganizationOption[],
  ): Promise<readonly SvcOrganizationOption[]> {
    if (options.length < 2) return options;
    const client = await this.#deps.clients.findByClientId(clientId);
    if (client === undefined || isOpen(client)) return options;
    const assignments = await this.#assignments(client);
    const base = await this.#userSubject(client, assignments, { userId, organizationId: null });
    const allowed = options.filter(
      (option) =>
        decideAccess(client.access.mode, assignments, {
          ...base,
          organizationId: option.id,
          role: option.role,
        }).allowed,
    );
    return allowed.length === 0 ? options : allowed;
  }

  #assignments(client: ClientRecord): Promise<AssignmentRecord[]> {
    return client.access.assignments === 0
      ? Promise.resolve([])
      : this.#deps.repository.listAssignments(client.clientId);
  }

  /** What the decision needs to know of the user, read only when an assignment or the mode asks. */
  async #userSubject(
    client: ClientRecord,
    assignments: readonly AssignmentRecord[],
    request: UserAccessRequest,
  ): Promise<AccessSubject & { kind: 'user' }> {
    const { repository } = this.#deps;
    const { userId, organizationId } = request;
    const needsRole = assignments.some(
      (assignment) => assignment.principalType === 'role' && assignment.organizationId === organizationId,
    );
    const needsGroups = assignments.some((assignment) => assignment.principalType === 'group');
    const isOperator =
      client.access.mode !== 'internal_only'
        ? false
        : (request.isOperator ?? (await this.#deps.users.findById(userId))?.isOperator === true);
    return {
      kind: 'user',
      userId,
      organizationId,
      role:
        needsRole && organizationId !== null ? await repository.membershipRole(userId, organizationId) : null,
      groupIds: needsGroups ? await repository.userGroupIds(userId) : new Set(),
      isOperator,
    };
  }
}

/** The default mode without assignments: everyone, decided from the client row alone. */
function isOpen(client: ClientRecord): boolean {
  return client.access.mode === 'all_organizations' && client.access.assignments === 0;
}

import type {
  ApplicationAccessCheckQuery,
  ApplicationAccessMode,
  CreateApplicationAssignmentInput,
  Page,
  SvcApplicationAccess,
  SvcApplicationAccessCheck,
  SvcApplicationAssignment,
  SvcOrganizationApplication,
  SvcUserApplication,
} from '@svc/contract';
import { findClientByEitherId } from '../directory/client-lookup.js';
import { actorFields, type AdminActor } from '../audit/actor.js';
import type {
  ClientRecord,
  ClientRepository,
  ListQuery,
  MembershipRepository,
  OrganizationRepository,
  UserRepository,
} from '../directory/repository.js';
import type { AuditLog } from '../audit/audit-log.js';
import { toIso, type Clock } from '../kernel/clock.js';
import { SvcConflictError, SvcNotFoundError, SvcValidationError } from '../kernel/errors.js';
import type { Ids } from '../kernel/ids.js';
import { decideAccess, type AccessCheck } from './access-policy.js';
import type { ApplicationAccess } from './application-access.js';
import {
  principalKey,
  type ApplicationAccessRepository,
  type AssignmentRecord,
  type NamedAssignmentRecord,
  type PrincipalKind,
} from './repository.js';

export interface ApplicationAccessAdminDeps {
  readonly repository: ApplicationAccessRepository;
  readonly access: ApplicationAccess;
  readonly clients: Pick<ClientRepository, 'findById' | 'findByClientId' | 'list'>;
  readonly users: Pick<UserRepository, 'findById'>;
  readonly organizations: Pick<OrganizationRepository, 'findById'>;
  readonly memberships: Pick<MembershipRepository, 'listUserOrganizations' | 'hasActiveMembership'>;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}

/** The table each principal type's id names; a role names an organization (and a role key). */
const PRINCIPAL_KIND: Record<SvcApplicationAssignment['principalType'], PrincipalKind> = {
  organization: 'organization',
  user: 'user',
  group: 'group',
  role: 'organization',
  service_account: 'service_account',
  agent: 'agent',
};

function toWire(client: ClientRecord, record: NamedAssignmentRecord): SvcApplicationAssignment {
  return {
    id: record.id,
    applicationId: client.id,
    clientId: client.clientId,
    principalType: record.principalType,
    principalId: record.principalId,
    organizationId: record.organizationId,
    roleKey: record.roleKey,
    principal: record.principal === null ? null : { ...record.principal },
    effect: record.effect,
    createdAt: toIso(record.createdAt),
  };
}

function toCheck(check: AccessCheck): SvcApplicationAccessCheck {
  return { allowed: check.allowed, decision: check.decision, reasons: [...check.reasons] };
}

/**
 * The operator API of application access (docs/reference/application-access.md: access mode,
 * assignments, the access check, and the applications of an organization or a user). An
 * `{applicationId}` is the client's clientId or its record id (findClientByEitherId). Every
 * change is audited; none is cached, so it holds on every node from the next sign-in or refresh on.
 */
export class ApplicationAccessAdmin {
  readonly #deps: ApplicationAccessAdminDeps;

  constructor(deps: ApplicationAccessAdminDeps) {
    this.#deps = deps;
  }

  async listAssignments(applicationId: string): Promise<SvcApplicationAccess> {
    const client = await this.#application(applicationId);
    const assignments = await this.#deps.repository.listNamedAssignments(client.clientId);
    return {
      applicationId: client.id,
      clientId: client.clientId,
      mode: client.access.mode,
      data: assignments.map((record) => toWire(client, record)),
    };
  }

  async setMode(
    applicationId: string,
    mode: ApplicationAccessMode,
    actor?: AdminActor,
  ): Promise<{ applicationId: string; clientId: string; mode: ApplicationAccessMode }> {
    const client = await this.#application(applicationId);
    if (!(await this.#deps.repository.setMode(client.clientId, mode, this.#deps.clock.now()))) {
      throw applicationNotFound(applicationId);
    }
    if (client.access.mode !== mode) {
      await this.#audit('application.access_mode.changed', client, actor, {
        from: client.access.mode,
        to: mode,
      });
    }
    return { applicationId: client.id, clientId: client.clientId, mode };
  }

  async createAssignment(
    applicationId: string,
    input: CreateApplicationAssignmentInput,
    actor?: AdminActor,
  ): Promise<SvcApplicationAssignment> {
    const client = await this.#application(applicationId);
    const referenced = input.principalType === 'role' ? input.organizationId : input.principalId;
    const field =
      input.principalType === 'role' || input.principalType === 'organization'
        ? 'organizationId'
        : 'principalId';
    const principal =
      referenced === null
        ? undefined
        : await this.#deps.repository.findPrincipal(PRINCIPAL_KIND[input.principalType], referenced);
    if (principal === undefined) {
      throw new SvcValidationError(
        `No ${PRINCIPAL_KIND[input.principalType].replace('_', ' ')} has this id.`,
        [{ path: field, message: `no ${PRINCIPAL_KIND[input.principalType].replace('_', ' ')} has this id` }],
      );
    }
    const record: AssignmentRecord = {
      id: this.#deps.ids.id('apa'),
      clientId: client.clientId,
      principalType: input.principalType,
      principalId: input.principalId,
      organizationId: input.organizationId,
      roleKey: input.roleKey,
      effect: input.effect,
      createdAt: this.#deps.clock.now(),
    };
    if (!(await this.#deps.repository.insertAssignment(record))) {
      throw new SvcConflictError(
        `The application already has an assignment for ${principalKey(record)}; delete it first to change its effect.`,
      );
    }
    await this.#audit('application.assignment.created', client, actor, assignmentData(record));
    return toWire(client, { ...record, principal });
  }

  async deleteAssignment(applicationId: string, assignmentId: string, actor?: AdminActor): Promise<void> {
    const client = await this.#application(applicationId);
    const deleted = await this.#deps.repository.deleteAssignment(client.clientId, assignmentId);
    if (deleted === undefined) {
      throw new SvcNotFoundError(`The application has no assignment '${assignmentId}'.`);
    }
    await this.#audit('application.assignment.deleted', client, actor, assignmentData(deleted));
  }

  /** GET …/access/check: the decision a sign-in (or a service account's or agent's use) would get, and why. */
  async check(applicationId: string, query: ApplicationAccessCheckQuery): Promise<SvcApplicationAccessCheck> {
    const client = await this.#application(applicationId);
    if (!client.active) {
      return {
        allowed: false,
        decision: 'application_inactive',
        reasons: [{ code: 'application_inactive', message: 'The client is deactivated: nobody may use it.' }],
      };
    }
    if (query.serviceAccountId !== undefined) {
      return toCheck(await this.#deps.access.checkMachine(client, 'service_account', query.serviceAccountId));
    }
    if (query.agentId !== undefined) {
      return toCheck(await this.#deps.access.checkMachine(client, 'agent', query.agentId));
    }
    const userId = query.userId ?? '';
    const user = await this.#deps.users.findById(userId);
    if (user === undefined) throw new SvcNotFoundError(`User '${userId}' was not found.`);
    const organizationId = query.organizationId ?? null;
    if (
      organizationId !== null &&
      !(await this.#deps.memberships.hasActiveMembership(userId, organizationId))
    ) {
      return {
        allowed: false,
        decision: 'not_a_member',
        reasons: [
          {
            code: 'not_a_member',
            message: 'The user is not an active member of this organization: a sign-in there is refused.',
          },
        ],
      };
    }
    return toCheck(
      await this.#deps.access.checkUser(client, { userId, organizationId, isOperator: user.isOperator }),
    );
  }

  /**
   * GET /organizations/{id}/applications: the active clients its members may use: `all` where the
   * organization's own rules let every member in, `some` where only a role's members are allowed.
   * Pages over clients, so a page may hold fewer entries than `limit` while `nextCursor` is set.
   */
  async organizationApplications(
    organizationId: string,
    page: ListQuery,
  ): Promise<Page<SvcOrganizationApplication>> {
    if ((await this.#deps.organizations.findById(organizationId)) === undefined) {
      throw new SvcNotFoundError(`Organization '${organizationId}' was not found.`);
    }
    const { clients, assignments, nextCursor } = await this.#activeClients(page);
    // Any member, as the organization's own rules see them: no role, no group, not an operator.
    const member = {
      kind: 'user',
      userId: '',
      organizationId,
      role: null,
      groupIds: new Set<string>(),
      isOperator: false,
    } as const;
    const data: SvcOrganizationApplication[] = [];
    for (const client of clients) {
      const own = assignments.get(client.clientId) ?? [];
      if (decideAccess(client.access.mode, own, member).allowed) {
        data.push({ ...summary(client), members: 'all' });
      } else if (
        client.access.mode === 'selected_users_groups_roles' &&
        own.some(
          (a) => a.effect === 'allow' && a.principalType === 'role' && a.organizationId === organizationId,
        )
      ) {
        data.push({ ...summary(client), members: 'some' });
      }
    }
    return { data, nextCursor };
  }

  /**
   * GET /users/{id}/applications: the active clients the user may use, in which of their organizations,
   * and whether without one. Pages over clients, like the organization's list.
   */
  async userApplications(userId: string, page: ListQuery): Promise<Page<SvcUserApplication>> {
    const user = await this.#deps.users.findById(userId);
    if (user === undefined) throw new SvcNotFoundError(`User '${userId}' was not found.`);
    const organizations = user.active ? await this.#deps.memberships.listUserOrganizations(userId) : [];
    const { clients, assignments, nextCursor } = await this.#activeClients(page);
    const needsGroups = [...assignments.values()].some((list) =>
      list.some((a) => a.principalType === 'group'),
    );
    const groupIds = needsGroups ? await this.#deps.repository.userGroupIds(userId) : new Set<string>();
    const data: SvcUserApplication[] = [];
    for (const client of user.active ? clients : []) {
      const own = assignments.get(client.clientId) ?? [];
      const allows = (organizationId: string | null, role: string | null) =>
        decideAccess(client.access.mode, own, {
          kind: 'user',
          userId,
          organizationId,
          role,
          groupIds,
          isOperator: user.isOperator,
        }).allowed;
      const organizationIds = organizations.filter((o) => allows(o.id, o.role)).map((o) => o.id);
      const withoutOrganization = allows(null, null);
      if (organizationIds.length > 0 || withoutOrganization) {
        data.push({ ...summary(client), organizationIds, withoutOrganization });
      }
    }
    return { data, nextCursor };
  }

  /** A page of clients, the active ones with their assignments (read in one query). */
  async #activeClients(page: ListQuery): Promise<{
    clients: ClientRecord[];
    assignments: Map<string, AssignmentRecord[]>;
    nextCursor: string | null;
  }> {
    const listed = await this.#deps.clients.list(page);
    const clients = listed.data.filter((client) => client.active);
    const withAssignments = clients.filter((client) => client.access.assignments > 0).map((c) => c.clientId);
    const assignments = new Map<string, AssignmentRecord[]>();
    if (withAssignments.length > 0) {
      for (const record of await this.#deps.repository.listAssignmentsOf(withAssignments)) {
        assignments.set(record.clientId, [...(assignments.get(record.clientId) ?? []), record]);
      }
    }
    return { clients, assignments, nextCursor: listed.nextCursor };
  }

  async #application(applicationId: string): Promise<ClientRecord> {
    const client = await findClientByEitherId(this.#deps.clients, applicationId);
    if (client === undefined) throw applicationNotFound(applicationId);
    return client;
  }

  #audit(kind: string, client: ClientRecord, actor: AdminActor | undefined, data: Record<string, unknown>) {
    return this.#deps.audit.record({ kind, ...actorFields(actor), clientId: client.clientId, data });
  }
}

function applicationNotFound(applicationId: string): SvcNotFoundError {
  return new SvcNotFoundError(`Application '${applicationId}' was not found.`);
}

function summary(client: ClientRecord) {
  return { applicationId: client.id, clientId: client.clientId, name: client.name, mode: client.access.mode };
}

function assignmentData(record: AssignmentRecord): Record<string, unknown> {
  return {
    assignmentId: record.id,
    principalType: record.principalType,
    principalId: record.principalId,
    organizationId: record.organizationId,
    roleKey: record.roleKey,
    effect: record.effect,
  };
}

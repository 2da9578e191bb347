import type { ScimBearerAuth } from './bearer-auth.js';
import { MAX_PAGE_SIZE, resourceTypes, schemas, serviceProviderConfig } from './discovery-documents.js';
import { ScimError } from './errors.js';
import type { ScimGroups, ScimGroupWithMembers } from './groups.js';
import { isProjected, project, type ScimProjection } from './projection.js';
import type { ScimConnectionRecord, ScimPage, ScimPageQuery, ScimUserRecord } from './repository.js';
import { groupResource, userResource } from './representation.js';
import { EXTENSION_SCHEMAS, LIST_RESPONSE_SCHEMA } from './schema-names.js';
import type { ScimUsers } from './users.js';

type Json = Record<string, unknown>;

/** A list request's query (RFC 7644 §3.4.2): the filter, paging and projection, as strings. */
export interface ScimListQuery extends ScimProjection {
  readonly filter?: string | undefined;
  readonly startIndex?: string | undefined;
  readonly count?: string | undefined;
}

export interface ScimServiceProviderDeps {
  readonly auth: ScimBearerAuth;
  readonly users: ScimUsers;
  readonly groups: ScimGroups;
  /** `{PublicOrigin}{ScimBasePath}`: resource locations hang under it. */
  readonly baseUrl: string;
}

/** The default page size when a request gives no `count`. */
const DEFAULT_PAGE_SIZE = 100;

function integer(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed)) throw new ScimError(400, `${name} must be an integer.`, 'invalidValue');
  return parsed;
}

/** RFC 7644 §3.4.2.4: startIndex below 1 is 1, a negative count is 0; count is capped at the page size. */
export function pageOf(query: ScimListQuery): ScimPageQuery {
  const startIndex = Math.max(1, integer('startIndex', query.startIndex) ?? 1);
  const count = Math.min(MAX_PAGE_SIZE, Math.max(0, integer('count', query.count) ?? DEFAULT_PAGE_SIZE));
  return { startIndex, count };
}

function listResponse<T>(page: ScimPage<T>, query: ScimPageQuery, toJson: (item: T) => Json): Json {
  return {
    schemas: [LIST_RESPONSE_SCHEMA],
    totalResults: page.totalResults,
    startIndex: query.startIndex,
    itemsPerPage: page.resources.length,
    Resources: page.resources.map(toJson),
  };
}

/**
 * Svc as a SCIM 2.0 service provider (docs/reference/scim.md, RFC 7643/7644): authenticates a request to its
 * connection and answers the JSON documents the routes send, projected as asked.
 */
export class ScimServiceProvider {
  readonly #deps: ScimServiceProviderDeps;

  constructor(deps: ScimServiceProviderDeps) {
    this.#deps = deps;
  }

  get baseUrl(): string {
    return this.#deps.baseUrl;
  }

  authenticate(authorization: string | undefined, ipAddress: string): Promise<ScimConnectionRecord> {
    return this.#deps.auth.authenticate(authorization, ipAddress);
  }

  serviceProviderConfig(): Json {
    return serviceProviderConfig(this.#deps.baseUrl);
  }

  resourceTypes(): Json {
    const all = resourceTypes(this.#deps.baseUrl);
    return listResponse(
      { totalResults: all.length, resources: all },
      { startIndex: 1, count: all.length },
      (item) => item,
    );
  }

  resourceType(id: string): Json {
    return this.#one(resourceTypes(this.#deps.baseUrl), id, 'ResourceType');
  }

  schemas(): Json {
    const all = schemas(this.#deps.baseUrl);
    return listResponse(
      { totalResults: all.length, resources: all },
      { startIndex: 1, count: all.length },
      (item) => item,
    );
  }

  schema(id: string): Json {
    return this.#one(schemas(this.#deps.baseUrl), id, 'Schema');
  }

  async listUsers(connection: ScimConnectionRecord, query: ScimListQuery): Promise<Json> {
    const page = pageOf(query);
    const found = await this.#deps.users.list(connection, query.filter, page);
    return listResponse(found, page, (user) => this.#user(user, query));
  }

  async createUser(
    connection: ScimConnectionRecord,
    body: unknown,
    projection: ScimProjection,
  ): Promise<Json> {
    return this.#user(await this.#deps.users.create(connection, body), projection);
  }

  async getUser(connection: ScimConnectionRecord, id: string, projection: ScimProjection): Promise<Json> {
    return this.#user(await this.#deps.users.get(connection, id), projection);
  }

  async replaceUser(
    connection: ScimConnectionRecord,
    id: string,
    body: unknown,
    projection: ScimProjection,
  ): Promise<Json> {
    return this.#user(await this.#deps.users.replace(connection, id, body), projection);
  }

  async patchUser(
    connection: ScimConnectionRecord,
    id: string,
    body: unknown,
    projection: ScimProjection,
  ): Promise<Json> {
    return this.#user(await this.#deps.users.patch(connection, id, body), projection);
  }

  deleteUser(connection: ScimConnectionRecord, id: string): Promise<void> {
    return this.#deps.users.delete(connection, id);
  }

  async listGroups(connection: ScimConnectionRecord, query: ScimListQuery): Promise<Json> {
    const page = pageOf(query);
    const found = await this.#deps.groups.list(connection, query.filter, page);
    return listResponse(found, page, (group) => this.#group(group, query));
  }

  async createGroup(
    connection: ScimConnectionRecord,
    body: unknown,
    projection: ScimProjection,
  ): Promise<Json> {
    return this.#group(await this.#deps.groups.create(connection, body), projection);
  }

  async getGroup(connection: ScimConnectionRecord, id: string, projection: ScimProjection): Promise<Json> {
    return this.#group(await this.#deps.groups.get(connection, id), projection);
  }

  async replaceGroup(
    connection: ScimConnectionRecord,
    id: string,
    body: unknown,
    projection: ScimProjection,
  ): Promise<Json> {
    return this.#group(await this.#deps.groups.replace(connection, id, body), projection);
  }

  /**
   * docs/reference/scim.md "Protocol rules": a Group PATCH answers 204, unless the request asks for a
   * projected resource.
   */
  async patchGroup(
    connection: ScimConnectionRecord,
    id: string,
    body: unknown,
    projection: ScimProjection,
  ): Promise<Json | undefined> {
    const patched = await this.#deps.groups.patch(connection, id, body);
    return isProjected(projection) ? this.#group(patched, projection) : undefined;
  }

  deleteGroup(connection: ScimConnectionRecord, id: string): Promise<void> {
    return this.#deps.groups.delete(connection, id);
  }

  #user(user: ScimUserRecord, projection: ScimProjection): Json {
    return project(userResource(user, this.#deps.baseUrl), projection, EXTENSION_SCHEMAS.User);
  }

  #group({ group, memberIds }: ScimGroupWithMembers, projection: ScimProjection): Json {
    return project(groupResource(group, memberIds, this.#deps.baseUrl), projection, EXTENSION_SCHEMAS.Group);
  }

  #one(documents: readonly Json[], id: string, what: string): Json {
    const found = documents.find((document) => document.id === id);
    if (found === undefined) throw new ScimError(404, `${what} '${id}' was not found.`);
    return found;
  }
}

import { svcScimMappingSchema, type SvcScimMapping } from '@svc/contract';
import { expect } from 'vitest';
import type { Svc } from '../app/create-svc.js';
import { createDocumentModel, fgaApi } from './fga-api.js';
import { GROUP_SCHEMA, PATCH_SCHEMA, scimTenant, scimUser, type ScimTenant } from './scim.js';
import { TEST_ADMIN_TOKEN } from './test-svc.js';

export const AUTH_API = '/svc/admin/auth/api';

export interface OperatorAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** Calls `/svc/admin/auth/api` as the operator; every answer is below 500. */
export function operatorApi(svc: Svc) {
  return async (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    payload?: unknown,
  ): Promise<OperatorAnswer> => {
    const response = await svc.app.inject({
      method,
      url: `${AUTH_API}${path}`,
      headers: {
        authorization: `Bearer ${TEST_ADMIN_TOKEN}`,
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
    expect(response.statusCode, response.body).toBeLessThan(500);
    return {
      status: response.statusCode,
      body: response.body === '' ? {} : (JSON.parse(response.body) as Record<string, unknown>),
    };
  };
}

/**
 * An organization with an enabled SCIM connection whose grant boundary is the organization's FGA root
 * (`<name>` → project `<name>/P` → document `<name>/P/D`), a sibling root outside it, and the FGA
 * document model (keys prefixed with `prefix`).
 */
export interface MappingTenant extends ScimTenant {
  readonly root: string;
  readonly project: string;
  readonly document: string;
  /** A root beside the boundary: outside it. */
  readonly outside: string;
  readonly model: Awaited<ReturnType<typeof createDocumentModel>>;
  /** POST a mapping rule (201 expected), answering it. */
  mapping(body: Record<string, unknown>): Promise<SvcScimMapping>;
  /** A SCIM user `<local>@<name>.test`, answering its id. */
  user(local: string): Promise<string>;
  /** A SCIM group with the members, answering its id. */
  group(displayName: string, memberIds?: readonly string[], externalId?: string): Promise<string>;
  /** PATCH the group's members (`add` or `remove`), expecting 204. */
  members(groupId: string, op: 'add' | 'remove', userId: string): Promise<void>;
  /** Whether the user can read documents on the resource (`svc.fga.checkAsync`). */
  canRead(userId: string, resourceId: string): Promise<boolean>;
}

export async function mappingTenant(
  svc: Svc,
  name: string,
  model?: Awaited<ReturnType<typeof createDocumentModel>>,
): Promise<MappingTenant> {
  const fga = fgaApi(svc);
  const theModel = model ?? (await createDocumentModel(fga, `${name.toLowerCase()}.`));
  const root = await fga.create('/resources', { name, typeId: theModel.organizationType });
  const project = await fga.create('/resources', {
    name: `${name}/P`,
    typeId: theModel.projectType,
    parentId: root,
  });
  const document = await fga.create('/resources', {
    name: `${name}/P/D`,
    typeId: theModel.documentType,
    parentId: project,
  });
  const outside = await fga.create('/resources', {
    name: `${name} elsewhere`,
    typeId: theModel.organizationType,
  });
  const tenant = await scimTenant({ svc }, name);
  await svc.admin.updateScimConnectionAsync(tenant.connectionId, { grantBoundaryResourceId: root });
  const operator = operatorApi(svc);
  return {
    ...tenant,
    root,
    project,
    document,
    outside,
    model: theModel,
    async mapping(body) {
      const created = await operator('POST', `/scim-connections/${tenant.connectionId}/mappings`, body);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return svcScimMappingSchema.strict().parse(created.body);
    },
    async user(local) {
      const created = await tenant.call('POST', '/Users', scimUser(`${local}@${name.toLowerCase()}.test`));
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return String(created.body?.id);
    },
    async group(displayName, memberIds = [], externalId) {
      const created = await tenant.call('POST', '/Groups', {
        schemas: [GROUP_SCHEMA],
        displayName,
        ...(externalId === undefined ? {} : { externalId }),
        members: memberIds.map((value) => ({ value })),
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return String(created.body?.id);
    },
    async members(groupId, op, userId) {
      const answer = await tenant.call('PATCH', `/Groups/${groupId}`, {
        schemas: [PATCH_SCHEMA],
        Operations:
          op === 'add'
            ? [{ op: 'add', path: 'members', value: [{ value: userId }] }]
            : [{ op: 'remove', path: `members[value eq "${userId}"]` }],
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(204);
    },
    canRead: (userId, resourceId) =>
      svc.fga.checkAsync({ subject: { type: 'user', id: userId }, resourceId, permissionKey: theModel.read }),
  };
}

import { expect } from 'vitest';
import type { TestSvc } from './test-svc.js';

export const SCIM_BASE = '/svc/scim/v2';
export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

export interface ScimAnswer {
  readonly status: number;
  readonly headers: Record<string, unknown>;
  /** The parsed JSON body, or undefined for an empty one. */
  readonly body: Record<string, unknown> | undefined;
}

/** An organization with an enabled SCIM connection, and a client that calls SCIM with its token. */
export interface ScimTenant {
  readonly organizationId: string;
  readonly connectionId: string;
  readonly token: string;
  call(
    method: string,
    path: string,
    payload?: unknown,
    headers?: Record<string, string>,
  ): Promise<ScimAnswer>;
}

/** Sends a SCIM request as an identity provider does: `application/scim+json`, the bearer token. */
export async function scimCall(
  t: Pick<TestSvc, 'svc'>,
  token: string | undefined,
  method: string,
  path: string,
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<ScimAnswer> {
  const response = await t.svc.app.inject({
    method: method as 'GET',
    url: `${SCIM_BASE}${path}`,
    headers: {
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...(payload === undefined ? {} : { 'content-type': 'application/scim+json' }),
      ...headers,
    },
    ...(payload === undefined
      ? {}
      : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
  });
  expect(response.statusCode, response.body).toBeLessThan(500);
  return {
    status: response.statusCode,
    headers: response.headers,
    body: response.body === '' ? undefined : (JSON.parse(response.body) as Record<string, unknown>),
  };
}

/** A new organization and an enabled SCIM connection made through the operator API. */
export async function scimTenant(t: Pick<TestSvc, 'svc'>, name = 'Acme'): Promise<ScimTenant> {
  const organizationId = (await t.svc.admin.createOrganizationAsync({ name })).id;
  const created = await t.svc.admin.createScimConnectionAsync({ organizationId, displayName: `${name} IdP` });
  await t.svc.admin.enableScimConnectionAsync(created.id);
  return {
    organizationId,
    connectionId: created.id,
    token: created.token,
    call: (method, path, payload, headers) => scimCall(t, created.token, method, path, payload, headers),
  };
}

/** A minimal SCIM user body. */
export function scimUser(userName: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    schemas: [USER_SCHEMA],
    userName,
    name: { givenName: 'Ann', familyName: 'Lee' },
    emails: [{ value: userName, type: 'work', primary: true }],
    active: true,
    ...extra,
  };
}

/** A SCIM error answer of the status (and scimType, when given). */
export function expectScimError(answer: ScimAnswer, status: number, scimType?: string): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.body).toMatchObject({ schemas: [ERROR_SCHEMA], status: String(status) });
  if (scimType !== undefined) expect(answer.body?.scimType).toBe(scimType);
}

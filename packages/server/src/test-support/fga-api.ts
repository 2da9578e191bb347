import type { SvcFgaAccessTestResult } from '@svc/contract';
import { expect } from 'vitest';
import type { Svc } from '../app/create-svc.js';
import { TEST_ADMIN_TOKEN } from './test-svc.js';

export const FGA_API = '/svc/admin/fga/api';

export interface FgaResponse {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly text: string;
}

/**
 * Calls `/svc/admin/fga/api` on `svc` through `inject()` as the operator (or without the token), and
 * checks what every answer must be: below 500 and never cached.
 */
export function fgaApi(svc: Svc) {
  const call = async (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    payload?: unknown,
    authorized = true,
  ): Promise<FgaResponse> => {
    const response = await svc.app.inject({
      method,
      url: `${FGA_API}${path}`,
      headers: {
        ...(authorized ? { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } : {}),
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(payload === undefined
        ? {}
        : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
    });
    expect(response.statusCode, response.body).toBeLessThan(500);
    if (authorized) expect(response.headers['cache-control']).toBe('no-store');
    return {
      status: response.statusCode,
      body: response.body === '' ? {} : response.json<Record<string, unknown>>(),
      text: response.body,
    };
  };
  /** POSTs and expects `status` (201 by default); answers the body's id. */
  const create = async (path: string, payload: unknown, status = 201): Promise<string> => {
    const response = await call('POST', path, payload);
    expect(response.status, response.text).toBe(status);
    return response.body.id as string;
  };
  /** POST /access-test, expecting a 200. */
  const accessTest = async (payload: object) => {
    const response = await call('POST', '/access-test', payload);
    expect(response.status, response.text).toBe(200);
    return response.body as unknown as SvcFgaAccessTestResult;
  };
  return { call, create, accessTest };
}

/**
 * A small model: `<prefix>document.read` and `.write`, a viewer and an editor role, and organization,
 * project and document types; `prefix` keeps the keys of tests sharing one Svc apart.
 */
export async function createDocumentModel(api: ReturnType<typeof fgaApi>, prefix: string) {
  const organizationType = await api.create('/resource-types', {
    key: `${prefix}organization`,
    name: 'Organization',
  });
  const projectType = await api.create('/resource-types', { key: `${prefix}project`, name: 'Project' });
  const documentType = await api.create('/resource-types', { key: `${prefix}document`, name: 'Document' });
  await api.create('/permissions', { key: `${prefix}document.read`, name: 'Read documents' });
  await api.create('/permissions', { key: `${prefix}document.write`, name: 'Write documents' });
  const viewer = await api.create('/roles', {
    key: `${prefix}viewer`,
    name: 'Viewer',
    permissionKeys: [`${prefix}document.read`],
  });
  const editor = await api.create('/roles', {
    key: `${prefix}editor`,
    name: 'Editor',
    permissionKeys: [`${prefix}document.read`, `${prefix}document.write`],
  });
  return {
    organizationType,
    projectType,
    documentType,
    viewer,
    editor,
    read: `${prefix}document.read`,
    write: `${prefix}document.write`,
  };
}

/** A user named `name` (`<name>@example.com`), as a subject of grants; answers its id. */
export async function createFgaUser(svc: Svc, name: string): Promise<string> {
  const user = await svc.admin.createUserAsync({
    displayName: name,
    email: `${name}@example.com`,
    password: 'pw-12345678',
  });
  return user.id;
}

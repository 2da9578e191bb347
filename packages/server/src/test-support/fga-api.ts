import type { SvcFgaAccessTestResult } from '@svc/contract';
import { expect } from 'vitest';
import type { Svc } from '../app/create-svc.js';
import { operatorApi, type OperatorResponse } from './operator-api.js';

export const FGA_API = '/svc/admin/fga/api';

export type FgaResponse = OperatorResponse;

/** Calls `/svc/admin/fga/api` on `svc` as the operator (see operatorApi). */
export function fgaApi(svc: Svc) {
  const call = operatorApi(FGA_API, () => ({ svc }));
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

import { svcMfaSettingsSchema, svcOrganizationMfaPolicySchema } from '@svc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeAboveStorage } from '../test-support/databases.js';
import { mfaSettings, organizationMfaPolicy } from '../test-support/mfa.js';
import { createTestSvc, type TestSvc } from '../test-support/test-svc.js';
import { DEFAULT_MFA_SETTINGS, DEFAULT_ORGANIZATION_MFA_POLICY } from '../signin/methods/mfa/mfa-settings.js';

const API = '/svc/admin/auth/api';
const NOT_FOUND = { error: 'not_found', message: 'Not found.' };

/**
 * The operator routes of docs/reference/operator-api.md "Security settings": GET/PUT /settings/mfa and
 * /organizations/{organizationId}/mfa-policy.
 */
describeAboveStorage('MFA operator routes', (kind) => {
  let t: TestSvc;
  let organizationId: string;

  beforeAll(async () => {
    t = await createTestSvc(kind);
    organizationId = (await t.svc.admin.createOrganizationAsync({ name: 'Acme' })).id;
  });
  afterAll(async () => {
    await t.close();
  });

  const call = (method: 'GET' | 'PUT', path: string, payload?: unknown, authorized = true) =>
    t.svc.app.inject({
      method,
      url: `${API}${path}`,
      headers: {
        ...(authorized ? t.operator : {}),
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });

  it('answers 404 without the operator token, before reading the body, and changes nothing', async () => {
    const paths = ['/settings/mfa', `/organizations/${organizationId}/mfa-policy`];
    for (const path of paths) {
      for (const [method, payload] of [
        ['GET', undefined],
        ['PUT', mfaSettings({ requireForAllUsers: true })],
        ['PUT', '{not json'],
      ] as const) {
        const response = await call(method, path, payload, false);
        expect(response.statusCode, `${method} ${path}`).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
      }
    }
    expect(await t.svc.admin.getMfaSettingsAsync()).toEqual(DEFAULT_MFA_SETTINGS);
  });

  it('global settings: GET the defaults, PUT replaces them (camelCase, case-insensitive keys), GET reads them back', async () => {
    const first = await call('GET', '/settings/mfa');
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.json()).toEqual(DEFAULT_MFA_SETTINGS);

    const body = { ...mfaSettings({ requiredRoles: ['Auditor'] }), RequireForOwnersAndAdmins: true };
    delete (body as Partial<typeof body>).requireForOwnersAndAdmins;
    const saved = await call('PUT', '/settings/mfa', body);
    expect(saved.statusCode).toBe(200);
    const expected = mfaSettings({ requireForOwnersAndAdmins: true, requiredRoles: ['auditor'] });
    expect(svcMfaSettingsSchema.parse(saved.json())).toEqual(expected);
    expect((await call('GET', '/settings/mfa')).json()).toEqual(expected);
    await t.svc.admin.updateMfaSettingsAsync(DEFAULT_MFA_SETTINGS);
  });

  it('global settings: an invalid body is 400 naming the fields, and nothing is saved', async () => {
    const { enabled: _missing, ...withoutEnabled } = DEFAULT_MFA_SETTINGS;
    for (const [payload, field] of [
      [withoutEnabled, 'enabled'],
      [{ ...DEFAULT_MFA_SETTINGS, availableFactors: ['email'] }, 'availableFactors.0'],
      [{ ...DEFAULT_MFA_SETTINGS, requiredRoles: 'admin' }, 'requiredRoles'],
      [[], '(body)'],
    ] as const) {
      const response = await call('PUT', '/settings/mfa', payload);
      expect(response.statusCode, field).toBe(400);
      expect(response.json()).toMatchObject({ error: 'invalid_request', details: [{ path: field }] });
    }
    expect(await t.svc.admin.getMfaSettingsAsync()).toEqual(DEFAULT_MFA_SETTINGS);
  });

  it('organization policy: GET the defaults, PUT replaces it, 400 for an invalid body, 404 for an unknown organization', async () => {
    const path = `/organizations/${organizationId}/mfa-policy`;
    expect((await call('GET', path)).json()).toEqual(DEFAULT_ORGANIZATION_MFA_POLICY);
    const policy = organizationMfaPolicy({ requireMfaForAllUsers: true, recoveryCodesEnabled: false });
    const saved = await call('PUT', path, policy);
    expect(saved.statusCode).toBe(200);
    expect(svcOrganizationMfaPolicySchema.parse(saved.json())).toEqual(policy);
    expect((await call('GET', path)).json()).toEqual(policy);

    const invalid = await call('PUT', path, { ...policy, isEnabled: 'yes' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({ details: [{ path: 'isEnabled' }] });

    for (const unknown of ['/organizations/org_missing/mfa-policy', '/organizations/%00/mfa-policy']) {
      const get = await call('GET', unknown);
      expect(get.statusCode, unknown).toBe(404);
      expect(get.json()).toMatchObject({ error: 'not_found' });
      expect((await call('PUT', unknown, policy)).statusCode, unknown).toBe(404);
    }
  });
});

import { auditEventPageSchema, svcOidcConnectionSchema } from '@svc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { OidcConnectionSeedOptions } from '../../config/options.js';
import { SvcConfigError } from '../../kernel/errors.js';
import { describeAboveStorage } from '../../test-support/databases.js';
import { operatorApi } from '../../test-support/operator-api.js';
import { TEST_OIDC_CALLBACK, TEST_OIDC_CLIENT_SECRET } from '../../test-support/oidc-connections.js';
import { anotherNode, createTestSvc, type TestSvc } from '../../test-support/test-svc.js';

const API = '/svc/admin/auth/api';
const GOOGLE: OidcConnectionSeedOptions = {
  id: 'oidc_google_seed',
  providerType: 'Google',
  clientId: 'seeded-google-client',
  clientSecretName: 'GOOGLE_CLIENT_SECRET',
  allowedCallbackUris: [TEST_OIDC_CALLBACK],
};
const ENV = { GOOGLE_CLIENT_SECRET: TEST_OIDC_CLIENT_SECRET };

/**
 * OIDC / social provider connections seeded from code (createSvc({ oidc })): written on every start of
 * a node, read-only to the operator API.
 */
describeAboveStorage('OIDC connections seeded from code', (kind) => {
  let first: TestSvc;

  beforeAll(async () => {
    first = await createTestSvc(kind);
  });
  afterAll(async () => {
    await first.close();
  });

  /** A node on the first one's database, with these seeds and this environment. */
  const node = (connections: OidcConnectionSeedOptions[], env: NodeJS.ProcessEnv = ENV) =>
    anotherNode(first, { oidc: { connections } }, env);
  const call = operatorApi(API, () => first, { ordered: true });
  const updates = async () => {
    const url = '/svc/admin/audit/api/events?kind=admin.oidc_connection.updated&limit=200';
    const response = await first.svc.app.inject({ method: 'GET', url, headers: first.operator });
    return auditEventPageSchema.parse(response.json()).data.length;
  };

  it('seeds a connection that operators read as code-owned and cannot change; a restart updates it in place', async () => {
    await (await node([GOOGLE])).close();
    const read = await call('GET', `/oidc-connections/${GOOGLE.id}`);
    expect(read.status, read.text).toBe(200);
    expect(svcOidcConnectionSchema.strict().parse(read.body)).toMatchObject({
      providerType: 'Google',
      clientId: 'seeded-google-client',
      clientSecretSet: true,
      enabled: true,
      owner: 'code',
    });
    expect(read.text).not.toContain(TEST_OIDC_CLIENT_SECRET);
    expect((await call('GET', '/oidc-connections?limit=200')).text).toContain(GOOGLE.id);
    for (const [method, path, body] of [
      ['PUT', `/oidc-connections/${GOOGLE.id}`, { ...GOOGLE, displayName: 'Changed' }],
      ['POST', `/oidc-connections/${GOOGLE.id}/disable`, undefined],
      ['DELETE', `/oidc-connections/${GOOGLE.id}`, undefined],
    ] as const) {
      const refused = await call(method, path, body);
      expect({ status: refused.status, error: refused.body.error }, `${method} ${path}`).toEqual({
        status: 400,
        error: 'invalid_request',
      });
      expect(refused.body.message).toContain('configured in code (createSvc({ oidc }))');
    }
    const unchanged = await updates();
    await (await node([GOOGLE])).close();
    expect(await updates()).toBe(unchanged);
    await (await node([{ ...GOOGLE, displayName: 'Google Workspace', enabled: false }])).close();
    const restarted = await first.svc.admin.getOidcConnectionAsync(GOOGLE.id);
    expect(restarted).toMatchObject({ displayName: 'Google Workspace', enabled: false, owner: 'code' });
    expect(await updates()).toBe(unchanged + 1);
  });

  it('stops the start with the reason for a seed it cannot honour', async () => {
    const operators = await first.svc.admin.createOidcConnectionAsync({
      providerType: 'GitHub',
      clientId: 'gh',
      clientSecret: TEST_OIDC_CLIENT_SECRET,
      allowedCallbackUris: [TEST_OIDC_CALLBACK],
    });
    const refused: [OidcConnectionSeedOptions[], NodeJS.ProcessEnv, RegExp][] = [
      [
        [{ ...GOOGLE, id: 'oidc_unset' }],
        {},
        /'oidc_unset': the secret GOOGLE_CLIENT_SECRET \(clientSecret\) is not set/,
      ],
      [
        [{ ...GOOGLE, id: 'oidc_both', clientSecret: 'x' }],
        ENV,
        /gives both clientSecret and clientSecretName/,
      ],
      [[{ ...GOOGLE, id: 'oidc_bad', allowedCallbackUris: [] }], ENV, /'oidc_bad'.*allowedCallbackUris/],
      [[{ ...GOOGLE, id: operators.id }], ENV, /exists and is not this seed's/],
      [[GOOGLE, GOOGLE], ENV, /Two OIDC connection seeds have the same id/],
      [[{ ...GOOGLE, id: 'oidc_org', organizationId: 'org_missing' }], ENV, /'oidc_org'.*org_missing/],
    ];
    for (const [connections, env, message] of refused) {
      const start = node(connections, env);
      await expect(start, message.source).rejects.toBeInstanceOf(SvcConfigError);
      await expect(start, message.source).rejects.toThrow(message);
    }
    expect((await first.svc.admin.getOidcConnectionAsync(operators.id)).owner).toBe('dashboard');
  });
});

import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ScimConnectionSeedOptions } from '../config/options.js';
import { SvcConfigError } from '../kernel/errors.js';
import { describeAboveStorage } from '../test-support/databases.js';
import { scimCall } from '../test-support/scim.js';
import { anotherNode, createTestSvc, type TestSvc } from '../test-support/test-svc.js';

const SEED_TOKEN = 'seeded-token-0123456789abcdefghijklmnop';

/**
 * SCIM connections seeded from code (docs/reference/scim.md "Seeded from code": a boundary from the seed and
 * a token or tokenSecretName, 32 or more characters without whitespace), written on every start of a node.
 */
describeAboveStorage('SCIM connections seeded from code', (kind) => {
  let first: TestSvc;
  let organizationId: string;

  beforeAll(async () => {
    first = await createTestSvc(kind);
    organizationId = (await first.svc.admin.createOrganizationAsync({ name: 'Seeded' })).id;
  });
  afterAll(async () => {
    await first.close();
  });

  /** A second node on the same database, with the seeds and environment given. */
  const node = (connections: unknown[], env: NodeJS.ProcessEnv = {}, scimBasePath?: string) =>
    anotherNode(
      first,
      {
        scim: { connections: connections as ScimConnectionSeedOptions[] },
        ...(scimBasePath === undefined ? {} : { scimBasePath }),
      },
      env,
    );

  it('seeds an enabled connection whose token works, owned by code and closed to the API', async () => {
    const svc = await node([
      { id: 'scim_seed', organizationId, grantBoundaryResourceId: 'res_org', token: SEED_TOKEN },
    ]);
    try {
      const connection = await svc.admin.getScimConnectionAsync('scim_seed');
      expect(connection).toMatchObject({
        organizationId,
        enabled: true,
        owner: 'code',
        grantBoundary: { resourceId: 'res_org' },
      });
      expect((await scimCall({ ...first, svc }, SEED_TOKEN, 'GET', '/Users')).status).toBe(200);
      await expect(svc.admin.disableScimConnectionAsync('scim_seed')).rejects.toMatchObject({ status: 400 });
      await expect(svc.admin.rotateScimConnectionTokenAsync('scim_seed')).rejects.toMatchObject({
        status: 400,
      });
    } finally {
      await svc.close();
    }
  });

  it('reads the token from the named secret on every start, so a new secret replaces the old token', async () => {
    const seed = { id: 'scim_secret', organizationId, enabled: false, tokenSecretName: 'SCIM_TOKEN' };
    const svc = await node([seed], { SCIM_TOKEN: `${SEED_TOKEN}-one` });
    await svc.close();
    const restarted = await node([{ ...seed, id: 'scim_secret' }], { SCIM_TOKEN: `${SEED_TOKEN}-two` });
    try {
      const hashes = await restarted.database.db
        .selectFrom('scimConnections')
        .select('tokenHash')
        .where('id', '=', 'scim_secret')
        .execute();
      expect(hashes).toHaveLength(1);
      expect(JSON.stringify(hashes)).not.toContain(SEED_TOKEN);
    } finally {
      await restarted.close();
    }
  });

  it('stops the start with the reason for a seed it cannot honour', async () => {
    const busy = (await first.svc.admin.createOrganizationAsync({ name: 'Busy' })).id;
    const enabled = await first.svc.admin.createScimConnectionAsync({ organizationId: busy });
    await first.svc.admin.enableScimConnectionAsync(enabled.id);
    const refused = [
      [{ id: 'a', organizationId, token: 'short' }],
      [{ id: 'b', organizationId, token: `${SEED_TOKEN} with spaces` }],
      [{ id: 'c', organizationId }],
      [{ id: 'd', organizationId, token: SEED_TOKEN, tokenSecretName: 'X' }],
      [{ id: 'e', organizationId, tokenSecretName: 'UNSET_SECRET' }],
      [{ id: 'f', organizationId: 'org_missing', token: SEED_TOKEN }],
      // One enabled connection per organization.
      [{ id: 'g', organizationId: busy, token: `${SEED_TOKEN}-g` }],
      // The id of a connection made through the API.
      [{ id: enabled.id, organizationId: busy, enabled: false, token: `${SEED_TOKEN}-h` }],
    ];
    for (const connections of refused) {
      await expect(node(connections), JSON.stringify(connections)).rejects.toBeInstanceOf(SvcConfigError);
    }
  });

  it('serves SCIM at a configured base path, which the Base URL and the resources name', async () => {
    const base = '/svc/directory/scim';
    const moved = (await first.svc.admin.createOrganizationAsync({ name: 'Moved' })).id;
    const seed = { id: 'scim_moved', organizationId: moved, enabled: true, token: `${SEED_TOKEN}-moved` };
    const svc = await node([seed], {}, `${base}/`);
    try {
      const call = (path: string) =>
        svc.app.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${seed.token}` } });
      const config = await call(`${base}/ServiceProviderConfig`);
      expect(config.statusCode, config.body).toBe(200);
      const baseUrl = `${first.svc.config.publicOrigin}${base}`;
      expect(config.json()).toMatchObject({ meta: { location: `${baseUrl}/ServiceProviderConfig` } });
      expect((await svc.admin.getScimConnectionAsync('scim_moved')).baseUrl).toBe(baseUrl);
      expect((await call('/svc/scim/v2/ServiceProviderConfig')).statusCode).toBe(404);
    } finally {
      await svc.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MINUTE_MS } from '../../kernel/clock.js';
import { basicAuth } from '../../test-support/oauth-http.js';
import { startSvcCluster, type ClusterNode, type SvcCluster } from '../../test-support/svc-cluster.js';

const skipReason = inject('postgresSkipReason');
const suite = skipReason === '' ? describe : describe.skip;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/**
 * Client secrets are guessed across requests and nodes or not at all: two nodes on one PostgreSQL,
 * the one address of the test process (docs/decisions/client-secret-failures.md).
 */
suite(
  `rejected client secrets across two nodes${skipReason === '' ? '' : ` (skipped: ${skipReason})`}`,
  () => {
    let cluster: SvcCluster;
    let first: ClusterNode;
    let second: ClusterNode;
    let secret: string;
    let otherSecret: string;
    beforeAll(async () => {
      cluster = await startSvcCluster(2);
      [first, second] = cluster.nodes as [ClusterNode, ClusterNode];
      const created = await first.svc.admin.createClientAsync({
        clientId: 'machine',
        name: 'Machine',
        audience: 'https://api.example.com',
        redirectUris: [],
        isFirstParty: true,
        tokenEndpointAuthMethod: 'client_secret_basic',
        allowClientCredentials: true,
      });
      secret = created.clientSecret ?? '';
      const other = await first.svc.admin.createClientAsync({
        clientId: 'other',
        name: 'Other',
        audience: 'https://api.example.com',
        redirectUris: [],
        tokenEndpointAuthMethod: 'client_secret_basic',
        allowClientCredentials: true,
      });
      otherSecret = other.clientSecret ?? '';
      await first.svc.admin.createClientAsync({
        clientId: 'tv',
        name: 'TV',
        audience: 'https://api.example.com',
        redirectUris: [],
        allowDeviceAuthorization: true,
      });
    });
    afterAll(async () => {
      await cluster?.close();
    });

    const token = (node: ClusterNode, presented: string, clientId = 'machine') =>
      fetch(node.url('/token'), {
        method: 'POST',
        headers: { ...FORM, authorization: basicAuth(clientId, presented) },
        body: 'grant_type=client_credentials',
      });
    const directLogin = (node: ClusterNode, presented: string) =>
      fetch(node.url('/password/login'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: 'nobody@example.com',
          password: 'correct horse battery staple',
          clientId: 'machine',
          clientSecret: presented,
        }),
      });

    it('locks the client for the address after 20 wrong secrets on any node, the right one too, until the lock ends', async () => {
      expect((await token(second, secret)).status).toBe(200);
      for (let i = 0; i < 20; i += 1) {
        expect((await token(first, `wrong-secret-${i}`)).status).toBe(401);
      }
      const locked = await token(first, 'wrong-secret-20');
      expect(locked.status).toBe(429);
      expect(locked.headers.get('retry-after')).toBe('900');
      expect(await locked.json()).toEqual({
        error: 'invalid_client',
        error_description: 'Too many wrong secrets for this client from this address; retry in 15 minutes.',
      });
      // The node that met the lock refuses the right secret without asking the database.
      expect((await token(first, secret)).status).toBe(429);
      // The other node meets it at its first wrong secret, and from then on refuses the right one too.
      expect((await token(second, 'wrong-secret-21')).status).toBe(429);
      expect((await token(second, secret)).status).toBe(429);
      // The direct helpers count the same secrets.
      const direct = await directLogin(second, secret);
      expect(direct.status).toBe(429);
      expect(await direct.json()).toMatchObject({ error: 'too_many_attempts' });
      // Another client from the same address (a service with a stale secret locks only itself).
      expect((await token(first, otherSecret, 'other')).status).toBe(200);
      // A public client proves nothing with a secret, so it has nothing to guess.
      const device = await fetch(first.url('/device_authorization'), {
        method: 'POST',
        headers: FORM,
        body: 'client_id=tv',
      });
      expect(device.status).toBe(200);

      cluster.clock.advance(15 * MINUTE_MS);
      expect((await token(first, secret)).status).toBe(200);
      expect((await token(second, secret)).status).toBe(200);
      expect((await directLogin(first, 'wrong-again')).status).toBe(401);
    });
  },
);

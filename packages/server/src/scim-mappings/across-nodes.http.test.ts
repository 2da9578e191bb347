import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { fgaApi } from '../test-support/fga-api.js';
import { mappingTenant } from '../test-support/scim-mappings.js';
import { startSvcCluster, type ClusterNode, type SvcCluster } from '../test-support/svc-cluster.js';

const skipReason = inject('postgresSkipReason');
const suite = skipReason === '' ? describe : describe.skip;

/**
 * SCIM pushes to one node, checks on another: two Svc instances on one PostgreSQL database, each with its
 * own FGA check cache, warmed; the grant a SCIM PATCH makes or ends on one node is what the other
 * node's very next check answers.
 */
suite(
  `SCIM mapping grants across two nodes on one PostgreSQL${skipReason === '' ? '' : ` (skipped: ${skipReason})`}`,
  () => {
    let cluster: SvcCluster;
    let scimNode: ClusterNode;
    let servingNode: ClusterNode;
    beforeAll(async () => {
      cluster = await startSvcCluster(2);
      [scimNode, servingNode] = cluster.nodes as [ClusterNode, ClusterNode];
    });
    afterAll(async () => {
      await cluster?.close();
    });

    it('a member added on one node can read on the other at once, and loses it there when removed', async () => {
      const acme = await mappingTenant(scimNode.svc, 'Nodes');
      await acme.mapping({
        displayName: 'Engineering reads P',
        match: { groupDisplayName: 'Engineering' },
        roleId: acme.model.viewer,
        resourceId: acme.project,
      });
      const ann = await acme.user('ann');
      const group = await acme.group('Engineering');
      const check = {
        subject: { type: 'user' as const, id: ann },
        resourceId: acme.document,
        permissionKey: acme.model.read,
      };
      // The serving node's cache holds the answer before the push.
      expect(await servingNode.svc.fga.checkAsync(check)).toBe(false);
      expect(await servingNode.svc.fga.checkAsync(check)).toBe(false);

      await acme.members(group, 'add', ann);
      expect(await servingNode.svc.fga.checkAsync(check)).toBe(true);
      await acme.members(group, 'remove', ann);
      expect(await servingNode.svc.fga.checkAsync(check)).toBe(false);
    });

    it('a grant whose resource an operator moves out of the boundary on one node is gone on the other at once', async () => {
      const acme = await mappingTenant(scimNode.svc, 'Moved');
      await acme.mapping({
        displayName: 'Engineering reads P',
        match: { groupDisplayName: 'Engineering' },
        roleId: acme.model.viewer,
        resourceId: acme.project,
      });
      const bea = await acme.user('bea');
      await acme.group('Engineering', [bea]);
      const check = {
        subject: { type: 'user' as const, id: bea },
        resourceId: acme.document,
        permissionKey: acme.model.read,
      };
      expect(await servingNode.svc.fga.checkAsync(check)).toBe(true);

      const moved = await fgaApi(scimNode.svc).call('PATCH', `/resources/${acme.project}`, {
        parentId: acme.outside,
      });
      expect(moved.status).toBe(200);
      expect(await servingNode.svc.fga.checkAsync(check)).toBe(false);
    });
  },
);

import { expect, it } from 'vitest';
import { createDocumentModel, createFgaUser, fgaApi } from '../test-support/fga-api.js';
import { describeOnTwoNodes } from '../test-support/svc-cluster.js';

/**
 * The check's cache across nodes: two Svc instances on one PostgreSQL database, each with its own
 * cache, both warmed; what one node writes, the other's very next check and access test see.
 */
describeOnTwoNodes('FGA checks across two nodes on one PostgreSQL', (nodes) => {
  it('a grant revoked or a member removed on one node is refused by the other’s next check', async () => {
    const operator = fgaApi(nodes.operatorNode.svc);
    const serving = fgaApi(nodes.servingNode.svc);
    const model = await createDocumentModel(operator, '');
    const org = await operator.create('/resources', { name: 'Org', typeId: model.organizationType });
    const doc = await operator.create('/resources', {
      name: 'Doc',
      typeId: model.documentType,
      parentId: org,
    });
    const ann = await createFgaUser(nodes.operatorNode.svc, 'ann');
    const check = {
      subject: { type: 'user' as const, id: ann },
      resourceId: doc,
      permissionKey: model.read,
    };
    const test = { subjectId: ann, resourceId: doc, permissionKey: model.read };

    const grant = await operator.create('/grants', {
      subjectId: ann,
      roleId: model.viewer,
      resourceId: org,
    });
    // Both nodes answer from their caches now.
    expect(await nodes.servingNode.svc.fga.checkAsync(check)).toBe(true);
    expect(await nodes.servingNode.svc.fga.checkAsync(check)).toBe(true);
    expect(await nodes.operatorNode.svc.fga.checkAsync(check)).toBe(true);
    expect((await operator.call('DELETE', `/grants/${grant}`)).status).toBe(204);
    expect(await nodes.servingNode.svc.fga.checkAsync(check)).toBe(false);
    expect((await serving.accessTest(test)).allowed).toBe(false);

    // The other way round, through a group: a member added on the serving node, removed on the other.
    const group = await serving.create('/groups', { name: 'Readers' });
    await serving.create('/grants', { subjectId: group, roleId: model.viewer, resourceId: org });
    expect(await nodes.operatorNode.svc.fga.checkAsync(check)).toBe(false);
    expect((await serving.call('POST', `/groups/${group}/members/${ann}`)).status).toBe(201);
    expect(await nodes.operatorNode.svc.fga.checkAsync(check)).toBe(true);
    expect(await nodes.servingNode.svc.fga.checkAsync(check)).toBe(true);
    expect((await operator.call('DELETE', `/groups/${group}/members/${ann}`)).status).toBe(204);
    expect(await nodes.servingNode.svc.fga.checkAsync(check)).toBe(false);
    expect((await serving.accessTest(test)).allowed).toBe(false);
  });

  it('many checks in flight on one node share version reads and still see a revocation made meanwhile', async () => {
    const operator = fgaApi(nodes.operatorNode.svc);
    const model = await createDocumentModel(operator, 'burst.');
    const org = await operator.create('/resources', { name: 'Org', typeId: model.organizationType });
    const bob = await createFgaUser(nodes.operatorNode.svc, 'bob');
    const grant = await operator.create('/grants', {
      subjectId: bob,
      roleId: model.viewer,
      resourceId: org,
    });
    const check = {
      subject: { type: 'user' as const, id: bob },
      resourceId: org,
      permissionKey: model.read,
    };
    const before = await Promise.all(
      Array.from({ length: 200 }, () => nodes.servingNode.svc.fga.checkAsync(check)),
    );
    expect(before.every(Boolean)).toBe(true);
    await operator.call('DELETE', `/grants/${grant}`);
    const after = await Promise.all(
      Array.from({ length: 200 }, () => nodes.servingNode.svc.fga.checkAsync(check)),
    );
    expect(after.some(Boolean)).toBe(false);
  });
});

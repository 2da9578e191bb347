import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../test-support/databases.js';
import { createDocumentModel, createFgaUser, fgaApi } from '../test-support/fga-api.js';
import { seedFgaTree, type SeededTree } from '../test-support/fga-tree.js';
import { createTestSvc, type TestSvc } from '../test-support/test-svc.js';

/**
 * A tree of 10,011 resources (a root, 10 projects, 1,000 folders, 9,000 documents) on both databases:
 * inheritance from every level, moves, revocation seen at once, and the operator lists over it.
 */
describeEachDatabase('FGA on a 10,000-resource tree', (kind) => {
  let t: TestSvc;
  let api: ReturnType<typeof fgaApi>;
  let tree: SeededTree;
  let model: Awaited<ReturnType<typeof createDocumentModel>>;
  let ann: string;
  beforeAll(async () => {
    t = await createTestSvc(kind);
    api = fgaApi(t.svc);
    model = await createDocumentModel(api, '');
    tree = await seedFgaTree(t.svc.database.db, {
      typeId: model.documentType,
      fanout: [10, 100, 9],
      prefix: 'big',
      at: t.clock.now(),
    });
    ann = await createFgaUser(t.svc, 'ann');
  });
  afterAll(async () => {
    await t.close();
  });

  const check = (resourceId: string, permissionKey = model.read) =>
    t.svc.fga.checkAsync({ subject: { type: 'user', id: ann }, resourceId, permissionKey });
  // Every document, 250 checks in flight at a time, as a busy host app makes them.
  const allowedLeaves = async () => {
    let allowed = 0;
    for (let i = 0; i < tree.leaves.length; i += 250) {
      const answers = await Promise.all(tree.leaves.slice(i, i + 250).map((leaf) => check(leaf)));
      allowed += answers.filter(Boolean).length;
    }
    return allowed;
  };

  it('holds 10,011 resources and lists them level by level', async () => {
    expect(tree.levels.map((level) => level.length)).toEqual([1, 10, 1000, 9000]);
    const projects = await api.call('GET', `/resources?parentId=${tree.rootId}&limit=200`);
    expect((projects.body.data as unknown[]).length).toBe(10);
    const page = await api.call('GET', '/resources?limit=200');
    expect((page.body.data as unknown[]).length).toBe(200);
    expect(page.body.nextCursor).toEqual(expect.any(String));
  });

  it('grants on the root reach all 9,000 documents through a group, and a revocation ends it at once', async () => {
    const group = await api.create('/groups', { name: 'Everyone' });
    await api.call('POST', `/groups/${group}/members/${ann}`);
    const grant = await api.create('/grants', {
      subjectId: group,
      roleId: model.viewer,
      resourceId: tree.rootId,
    });
    expect(await allowedLeaves()).toBe(9000);
    const leaf = tree.leaves[4321] ?? '';
    const explained = await api.accessTest({ subjectId: ann, resourceId: leaf, permissionKey: model.read });
    expect(explained.explanation).toMatchObject({
      grantId: grant,
      viaGroupId: group,
      grantedOnResourceId: tree.rootId,
    });
    expect(explained.explanation?.path).toHaveLength(4);
    expect(await check(leaf, model.write)).toBe(false);

    expect((await api.call('DELETE', `/grants/${grant}`)).status).toBe(204);
    expect(
      (await api.accessTest({ subjectId: ann, resourceId: leaf, permissionKey: model.read })).allowed,
    ).toBe(false);
    expect(await allowedLeaves()).toBe(0);
  });

  it('a grant on one project reaches its 900 documents only, and follows a folder that moves', async () => {
    const [projectA, projectB] = tree.levels[1] ?? [];
    const grant = await api.create('/grants', { subjectId: ann, roleId: model.editor, resourceId: projectA });
    expect(await allowedLeaves()).toBe(900);
    // A folder of project B moves under project A: its 9 documents are now inside the grant.
    const folder = `${projectB}_7`;
    expect((await api.call('PATCH', `/resources/${folder}`, { parentId: projectA })).status).toBe(200);
    expect(await allowedLeaves()).toBe(909);
    expect(await check(`${folder}_3`, model.write)).toBe(true);
    expect((await api.call('PATCH', `/resources/${folder}`, { parentId: projectB })).status).toBe(200);
    expect(await check(`${folder}_3`, model.write)).toBe(false);
    await api.call('DELETE', `/grants/${grant}`);
  });
});

// The fga_check row of `npm run bench`: svc.fga.checkAsync in process on a tree of 10,011 resources (a
// root, 10 projects, 1,000 folders, 9,000 documents), for 200 users in 10 groups. The model, groups and
// grants go in through the operator API (/svc/admin/fga/api) as an operator makes them; the resources
// with multi-row inserts through the service's Kysely handle (ten thousand API calls would take longer
// than the timed runs), in one transaction that bumps the model's version as every write does.

/** The tree's fan-out per level under the root: 10 × 100 × 9 = 9,000 documents. */
const FANOUT = [10, 100, 9];
const USERS = 200;
const GROUPS = 10;

/**
 * Builds the model on `svc` (listening at `adminApi`, the FGA operator API with `adminToken`) and
 * resolves to the checks the bench cycles through: every user against documents all over the tree,
 * for a permission some of them hold (through a group's grant on a project, or their own on a folder)
 * and some not.
 */
export async function seedFgaBench(svc, { adminApi, adminToken }) {
  const call = async (path, body) => {
    const response = await fetch(`${adminApi}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()).id;
  };
  const typeId = await call('/resource-types', { key: 'document', name: 'Document' });
  await call('/permissions', { key: 'document.read', name: 'Read' });
  await call('/permissions', { key: 'document.write', name: 'Write' });
  const viewer = await call('/roles', { key: 'viewer', name: 'Viewer', permissionKeys: ['document.read'] });
  const editor = await call('/roles', {
    key: 'editor',
    name: 'Editor',
    permissionKeys: ['document.read', 'document.write'],
  });

  const levels = await insertTree(svc.database.db, typeId);
  const [, projects, folders, documents] = levels;
  const users = [];
  for (let i = 0; i < USERS; i += 1) {
    const user = await svc.admin.createUserAsync({
      displayName: `FGA user ${i}`,
      email: `fga-user-${i}@example.com`,
      password: 'bench-password-123',
    });
    users.push(user.id);
  }
  for (let g = 0; g < GROUPS; g += 1) {
    const group = await call('/groups', { name: `Project ${g} team` });
    await call('/grants', { subjectId: group, roleId: viewer, resourceId: projects[g] });
    for (let i = g; i < USERS; i += GROUPS) {
      const response = await fetch(`${adminApi}/groups/${group}/members/${users[i]}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminToken}` },
      });
      if (!response.ok) throw new Error(`add member: ${response.status}`);
    }
  }
  for (let i = 0; i < USERS; i += 1) {
    await call('/grants', {
      subjectId: users[i],
      roleId: editor,
      resourceId: folders[(i * 37) % folders.length],
    });
  }
  const checks = [];
  for (let i = 0; i < 4096; i += 1) {
    checks.push({
      subject: { type: 'user', id: users[(i * 7) % USERS] },
      resourceId: documents[(i * 2_654_435_761) % documents.length],
      permissionKey: i % 3 === 0 ? 'document.write' : 'document.read',
    });
  }
  return { checks, resources: levels.reduce((n, level) => n + level.length, 0) };
}

/** Inserts the tree under one root; resolves to its levels' ids. */
async function insertTree(db, typeId) {
  const now = Date.now();
  const rows = [];
  const levels = [['frs_bench']];
  rows.push({ id: 'frs_bench', typeId, parentId: null, name: 'root', createdAt: now, updatedAt: now });
  for (const [depth, children] of FANOUT.entries()) {
    const level = [];
    for (const parentId of levels[depth]) {
      for (let i = 0; i < children; i += 1) {
        const id = `${parentId}_${i}`;
        rows.push({ id, typeId, parentId, name: id, createdAt: now, updatedAt: now });
        level.push(id);
      }
    }
    levels.push(level);
  }
  await db.transaction().execute(async (tx) => {
    await tx
      .updateTable('fgaState')
      .set((eb) => ({ version: eb('version', '+', 1) }))
      .where('id', '=', 1)
      .execute();
    for (let i = 0; i < rows.length; i += 1000) {
      await tx
        .insertInto('fgaResources')
        .values(rows.slice(i, i + 1000))
        .execute();
    }
  });
  return levels;
}

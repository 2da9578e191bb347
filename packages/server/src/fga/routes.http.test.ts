import { FGA_MAX_DEPTH } from '@svc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { NOT_FOUND_BODY } from '../http/errors.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { createDocumentModel, createFgaUser, fgaApi } from '../test-support/fga-api.js';
import { createTestSvc, type TestSvc } from '../test-support/test-svc.js';

/**
 * The FGA operator API and the in-process check on both databases: the model's records, the tree's
 * rules, inheritance through ancestors and groups with its explanation, and revocation seen by the
 * very next access test and check.
 */
describeEachDatabase('FGA operator API', (kind) => {
  let t: TestSvc;
  let api: ReturnType<typeof fgaApi>;
  beforeAll(async () => {
    t = await createTestSvc(kind);
    api = fgaApi(t.svc);
  });
  afterAll(async () => {
    await t.close();
  });

  const user = (name: string) => createFgaUser(t.svc, name);

  it('answers 404 without the operator token, and changes nothing', async () => {
    const routes: ['GET' | 'POST' | 'DELETE', string, unknown][] = [
      ['GET', '/resources', undefined],
      ['POST', '/resource-types', { key: 'hidden', name: 'Hidden' }],
      ['POST', '/access-test', { subjectId: 'usr_x', resourceId: 'frs_x', permissionKey: 'x' }],
      ['DELETE', '/grants/fgt_x', undefined],
    ];
    for (const [method, path, payload] of routes) {
      const response = await api.call(method, path, payload, false);
      expect(response, `${method} ${path}`).toMatchObject({ status: 404, body: NOT_FOUND_BODY });
    }
    const types = await api.call('GET', '/resource-types');
    expect((types.body.data as { key: string }[]).map((type) => type.key)).not.toContain('hidden');
  });

  it('creates, reads, changes and deletes definitions, refusing what is in use, and audits each', async () => {
    const model = await createDocumentModel(api, 'crud.');
    expect(
      (await api.call('POST', '/permissions', { key: 'crud.document.read', name: 'Again' })).status,
    ).toBe(409);
    const unknownKey = await api.call('POST', '/roles', {
      key: 'crud.x',
      name: 'X',
      permissionKeys: ['crud.nope'],
    });
    expect(unknownKey).toMatchObject({ status: 400, body: { error: 'invalid_request' } });

    const renamed = await api.call('PATCH', `/roles/${model.viewer}`, {
      name: 'Reader',
      permissionKeys: ['crud.document.read', 'crud.document.write'],
    });
    expect(renamed.body).toMatchObject({ key: 'crud.viewer', name: 'Reader' });
    expect((await api.call('GET', `/roles/${model.viewer}`)).body.permissionKeys).toEqual([
      'crud.document.read',
      'crud.document.write',
    ]);
    // A permission a role lists, a type resources have and a role grants use cannot go.
    const permissions = (await api.call('GET', '/permissions?limit=200')).body.data as {
      id: string;
      key: string;
    }[];
    const write = permissions.find((p) => p.key === 'crud.document.write')?.id ?? '';
    expect((await api.call('DELETE', `/permissions/${write}`)).status).toBe(409);
    const root = await api.create('/resources', { name: 'Root', typeId: model.organizationType });
    expect((await api.call('DELETE', `/resource-types/${model.organizationType}`)).status).toBe(409);
    const ann = await user('crud-ann');
    const grant = await api.create('/grants', { subjectId: ann, roleId: model.viewer, resourceId: root });
    expect((await api.call('DELETE', `/roles/${model.viewer}`)).status).toBe(409);
    expect((await api.call('DELETE', `/grants/${grant}`)).status).toBe(204);
    expect((await api.call('DELETE', `/roles/${model.viewer}`)).status).toBe(204);
    expect((await api.call('GET', `/roles/${model.viewer}`)).status).toBe(404);
    expect((await api.call('DELETE', `/permissions/${write}`)).status).toBe(409);
    expect((await api.call('DELETE', `/roles/${model.editor}`)).status).toBe(204);
    expect((await api.call('DELETE', `/permissions/${write}`)).status).toBe(204);
    // A role listing `crud.axb` does not hold `crud.a_b` in use (`_` is no wildcard here).
    const aUnderscoreB = await api.create('/permissions', { key: 'crud.a_b', name: 'X' });
    await api.create('/permissions', { key: 'crud.axb', name: 'Y' });
    await api.create('/roles', { key: 'crud.ab', name: 'AB', permissionKeys: ['crud.axb'] });
    expect((await api.call('DELETE', `/permissions/${aUnderscoreB}`)).status).toBe(204);

    const audit = await t.svc.app.inject({
      method: 'GET',
      url: '/svc/admin/audit/api/events?kind=fga.*&limit=200',
      headers: t.operator,
    });
    const kinds = (audit.json<{ data: { kind: string }[] }>().data ?? []).map((event) => event.kind);
    for (const expected of [
      'fga.resource_type.created',
      'fga.permission.created',
      'fga.permission.deleted',
      'fga.role.created',
      'fga.role.updated',
      'fga.role.deleted',
      'fga.resource.created',
      'fga.grant.created',
      'fga.grant.revoked',
    ]) {
      expect(kinds).toContain(expected);
    }
  });

  it('keeps the tree a tree: known parents of any type, no cycles, at most 32 levels', async () => {
    const model = await createDocumentModel(api, 'tree.');
    const root = await api.create('/resources', { name: 'Org', typeId: model.organizationType });
    // A parent of another type is the point of a tree; a parent id that is no resource is refused.
    const project = await api.create('/resources', { name: 'P', typeId: model.projectType, parentId: root });
    for (const parentId of ['frs_missing', model.projectType, model.viewer]) {
      const refused = await api.call('POST', '/resources', {
        name: 'X',
        typeId: model.documentType,
        parentId,
      });
      expect(refused, parentId).toMatchObject({ status: 400, body: { details: [{ path: 'parentId' }] } });
    }
    const badType = await api.call('POST', '/resources', { name: 'X', typeId: model.viewer, parentId: root });
    expect(badType).toMatchObject({ status: 400, body: { details: [{ path: 'typeId' }] } });

    // A chain down to depth 32: the root is at 1, so 31 more fit under it and a 33rd level does not.
    const chain = [root];
    for (let depth = 2; depth <= FGA_MAX_DEPTH; depth += 1) {
      chain.push(
        await api.create('/resources', {
          name: `L${depth}`,
          typeId: model.documentType,
          parentId: chain.at(-1),
        }),
      );
    }
    const tooDeep = await api.call('POST', '/resources', {
      name: 'L33',
      typeId: model.documentType,
      parentId: chain.at(-1),
    });
    expect(tooDeep).toMatchObject({ status: 400, body: { details: [{ path: 'parentId' }] } });
    const detail = await api.call('GET', `/resources/${chain.at(-1) ?? ''}`);
    expect(detail.body.ancestorIds).toEqual(chain.slice(0, -1).reverse());

    // Moves: not under itself or its own subtree, not so that the subtree sinks below the limit.
    const second = chain[1] ?? '';
    expect((await api.call('PATCH', `/resources/${second}`, { parentId: second })).status).toBe(400);
    const cycle = await api.call('PATCH', `/resources/${second}`, { parentId: chain[10] });
    expect(cycle).toMatchObject({
      status: 400,
      body: { details: [{ path: 'parentId', message: 'would make a cycle' }] },
    });
    const sinks = await api.call('PATCH', `/resources/${second}`, { parentId: project });
    expect(sinks).toMatchObject({ status: 400, body: { details: [{ path: 'parentId' }] } });
    const leaf = chain.at(-1) ?? '';
    const moved = await api.call('PATCH', `/resources/${leaf}`, { parentId: project, name: 'Moved' });
    expect(moved.body).toMatchObject({ parentId: project, name: 'Moved' });
    expect((await api.call('PATCH', `/resources/${project}`, { parentId: null })).body.parentId).toBeNull();

    // A resource with children cannot be deleted; a leaf goes with its grants.
    expect((await api.call('DELETE', `/resources/${project}`)).status).toBe(409);
    const ann = await user('tree-ann');
    const grant = await api.create('/grants', { subjectId: ann, roleId: model.viewer, resourceId: leaf });
    expect((await api.call('DELETE', `/resources/${leaf}`)).status).toBe(204);
    expect((await api.call('GET', `/grants/${grant}`)).status).toBe(404);
    expect((await api.call('GET', `/resources?parentId=${project}`)).body.data).toEqual([]);
    const roots = (await api.call('GET', '/resources?parentId=&limit=200')).body.data as { id: string }[];
    expect(roots.map((r) => r.id)).toEqual(expect.arrayContaining([root, project]));
  });

  it('inherits down the tree, through groups, and explains the nearest grant', async () => {
    const model = await createDocumentModel(api, 'inherit.');
    const org = await api.create('/resources', { name: 'Org', typeId: model.organizationType });
    const project = await api.create('/resources', { name: 'P', typeId: model.projectType, parentId: org });
    const doc = await api.create('/resources', { name: 'D', typeId: model.documentType, parentId: project });
    const other = await api.create('/resources', { name: 'Other', typeId: model.organizationType });
    const ann = await user('inherit-ann');
    const group = await api.create('/groups', { name: 'Readers' });
    expect((await api.call('POST', `/groups/${group}/members/${ann}`)).status).toBe(201);
    const viaGroup = await api.create('/grants', { subjectId: group, roleId: model.viewer, resourceId: org });

    const read = { subjectId: ann, resourceId: doc, permissionKey: model.read };
    expect(await api.accessTest(read)).toEqual({
      allowed: true,
      explanation: {
        grantId: viaGroup,
        roleId: model.viewer,
        roleKey: 'inherit.viewer',
        grantedOnResourceId: org,
        viaGroupId: group,
        path: [doc, project, org],
      },
    });
    expect(await api.accessTest({ ...read, permissionKey: model.write })).toEqual({
      allowed: false,
      explanation: null,
    });
    expect((await api.accessTest({ ...read, resourceId: other })).allowed).toBe(false);
    // The group itself holds it too; a subject type that does not match the id is unknown.
    expect((await api.accessTest({ ...read, subjectId: group, subjectType: 'group' })).allowed).toBe(true);
    expect((await api.call('POST', '/access-test', { ...read, subjectType: 'agent' })).status).toBe(400);

    // A direct grant nearer the resource explains the decision instead.
    const direct = await api.create('/grants', {
      subjectId: ann,
      subjectType: 'user',
      roleId: model.editor,
      resourceId: project,
    });
    expect((await api.accessTest(read)).explanation).toMatchObject({
      grantId: direct,
      viaGroupId: null,
      grantedOnResourceId: project,
      path: [doc, project],
    });
    expect((await api.accessTest({ ...read, permissionKey: model.write })).allowed).toBe(true);
    const check = {
      subject: { type: 'user' as const, id: ann },
      resourceId: doc,
      permissionKey: model.write,
    };
    expect(await t.svc.fga.checkAsync(check)).toBe(true);
    expect(await t.svc.fga.checkAsync({ ...check, resourceId: org })).toBe(false);
    expect(await t.svc.fga.checkAsync({ ...check, resourceId: 'frs_unknown' })).toBe(false);
  });

  it('sees a revocation, a removed member and a deleted group on the very next check', async () => {
    const model = await createDocumentModel(api, 'revoke.');
    const org = await api.create('/resources', { name: 'Org', typeId: model.organizationType });
    const doc = await api.create('/resources', { name: 'D', typeId: model.documentType, parentId: org });
    const ann = await user('revoke-ann');
    const check = { subject: { type: 'user' as const, id: ann }, resourceId: doc, permissionKey: model.read };
    const test = { subjectId: ann, resourceId: doc, permissionKey: model.read };

    const grant = await api.create('/grants', { subjectId: ann, roleId: model.viewer, resourceId: org });
    // Granting again answers the same grant.
    expect(await api.create('/grants', { subjectId: ann, roleId: model.viewer, resourceId: org }, 200)).toBe(
      grant,
    );
    expect(await t.svc.fga.checkAsync(check)).toBe(true);
    expect((await api.accessTest(test)).allowed).toBe(true);
    expect((await api.call('DELETE', `/grants/${grant}`)).status).toBe(204);
    expect((await api.accessTest(test)).allowed).toBe(false);
    expect(await t.svc.fga.checkAsync(check)).toBe(false);
    expect((await api.call('DELETE', `/grants/${grant}`)).status).toBe(404);
    const listed = (await api.call('GET', `/grants?subjectId=${ann}`)).body.data as unknown[];
    expect(listed).toEqual([]);

    const group = await api.create('/groups', { name: 'Team' });
    await api.call('POST', `/groups/${group}/members/${ann}`);
    await api.create('/grants', { subjectId: group, roleId: model.viewer, resourceId: doc });
    expect(await t.svc.fga.checkAsync(check)).toBe(true);
    expect((await api.call('DELETE', `/groups/${group}/members/${ann}`)).status).toBe(204);
    expect(await t.svc.fga.checkAsync(check)).toBe(false);
    expect((await api.call('DELETE', `/groups/${group}/members/${ann}`)).status).toBe(404);
    await api.call('POST', `/groups/${group}/members/${ann}`);
    expect(await t.svc.fga.checkAsync(check)).toBe(true);
    expect((await api.call('DELETE', `/groups/${group}`)).status).toBe(204);
    expect(await t.svc.fga.checkAsync(check)).toBe(false);
    expect((await api.call('GET', `/grants?subjectId=${group}`)).body.data).toEqual([]);
  });

  it('lists every kind of subject, and grants of a managing source apart from the operator’s', async () => {
    const model = await createDocumentModel(api, 'subjects.');
    const org = await api.create('/resources', { name: 'Org', typeId: model.organizationType });
    const organizationId = (await t.svc.admin.createOrganizationAsync({ name: 'Acme' })).id;
    const ann = await user('subjects-ann');
    const group = await api.create('/groups', { name: 'Acme staff', organizationId });
    const robot = await api.create('/subjects', { type: 'service_account', name: 'CI' });
    const agent = await api.create('/subjects', { type: 'agent', name: 'Assistant' });
    const subjects = (await api.call('GET', '/subjects?limit=200')).body.data as {
      type: string;
      id: string;
    }[];
    expect(subjects).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'user', id: ann }),
        expect.objectContaining({ type: 'group', id: group, organizationId }),
        expect.objectContaining({ type: 'service_account', id: robot }),
        expect.objectContaining({ type: 'agent', id: agent }),
      ]),
    );
    const agents = (await api.call('GET', '/subjects?type=agent&limit=200')).body.data as { type: string }[];
    expect(new Set(agents.map((s) => s.type))).toEqual(new Set(['agent']));
    // Paging walks the union without repeating or losing anyone.
    const seen: string[] = [];
    let cursor = '';
    do {
      const page = await api.call('GET', `/subjects?limit=2${cursor === '' ? '' : `&cursor=${cursor}`}`);
      seen.push(...(page.body.data as { id: string }[]).map((s) => s.id));
      cursor = (page.body.nextCursor as string | null) ?? '';
    } while (cursor !== '');
    expect(seen).toEqual(subjects.map((s) => s.id));

    expect((await api.call('PATCH', `/subjects/${agent}`, { name: 'Helper' })).body).toMatchObject({
      type: 'agent',
      name: 'Helper',
    });
    expect((await api.call('GET', `/subjects/${group}`)).status).toBe(404);
    expect((await api.call('POST', '/groups', { name: 'X', organizationId: 'org_missing' })).status).toBe(
      400,
    );

    const managed = await t.svc.fga.grantAsync({
      subjectId: robot,
      roleId: model.editor,
      resourceId: org,
      managedBy: 'scim:conn_1',
    });
    const manual = await api.create('/grants', { subjectId: robot, roleId: model.editor, resourceId: org });
    expect(managed).toMatchObject({
      subject: { type: 'service_account', id: robot },
      managedBy: 'scim:conn_1',
    });
    expect((await api.call('GET', `/grants/${manual}`)).body.managedBy).toBe('operator');
    const byScim = (await api.call('GET', '/grants?managedBy=scim:conn_1')).body.data as { id: string }[];
    expect(byScim.map((g) => g.id)).toEqual([managed.id]);
    expect((await t.svc.fga.revokeManagedGrantsAsync('scim:conn_1')).map((g) => g.id)).toEqual([managed.id]);
    const check = {
      subject: { type: 'service_account' as const, id: robot },
      resourceId: org,
      permissionKey: model.write,
    };
    expect(await t.svc.fga.explainAsync(check)).toMatchObject({
      allowed: true,
      explanation: { grantId: manual },
    });
    expect((await api.call('DELETE', `/subjects/${robot}`)).status).toBe(204);
    expect(await t.svc.fga.checkAsync(check)).toBe(false);
    expect((await api.call('GET', `/grants/${manual}`)).status).toBe(404);
  });

  it('answers malformed requests with a 400 naming the problem, never a 5xx', async () => {
    const bad: ['POST' | 'PATCH' | 'GET', string, unknown][] = [
      ['POST', '/resource-types', '{not json'],
      ['POST', '/resource-types', [1, 2]],
      ['POST', '/resource-types', { key: 'Has Spaces', name: 'X' }],
      ['POST', '/resource-types', { key: 'ok', name: '' }],
      ['POST', '/permissions', { key: 'x'.repeat(101), name: 'X' }],
      ['POST', '/roles', { key: 'r', name: 'R', permissionKeys: 'read' }],
      ['POST', '/resources', { name: 'X' }],
      ['POST', '/resources', { name: 'X\u0000', typeId: 'frt_x' }],
      ['POST', '/grants', { subjectId: 1, roleId: 'r', resourceId: 'x' }],
      ['POST', '/grants', { subjectId: 'usr_x', roleId: 'frl_x', resourceId: 'frs_x' }],
      ['POST', '/access-test', { subjectId: 'usr_x', resourceId: 'frs_x' }],
      [
        'POST',
        '/access-test',
        { subjectId: 'usr_x', resourceId: 'frs_x', permissionKey: 'p', subjectType: 'robot' },
      ],
      ['POST', '/subjects', { type: 'user', name: 'U' }],
      ['PATCH', '/resources/frs_x', { parentId: 7 }],
      ['GET', '/grants?limit=0', undefined],
      ['GET', '/subjects?type=robot', undefined],
      ['GET', '/resources?cursor=not-a-cursor', undefined],
      ['GET', '/resources?parentId=%00', undefined],
      ['GET', '/grants?managedBy=%00', undefined],
      ['GET', `/resources/${encodeURIComponent('frs_\u0000')}`, undefined],
    ];
    for (const [method, path, payload] of bad) {
      const response = await api.call(method, path, payload);
      expect(response.status, `${method} ${path} ${JSON.stringify(payload)}`).toBe(400);
    }
    expect((await api.call('GET', '/resources/frs_missing')).status).toBe(404);
    expect((await api.call('PATCH', '/groups/fgr_missing', { name: 'X' })).status).toBe(404);
    await expect(
      t.svc.fga.checkAsync({ subject: null, resourceId: 'x', permissionKey: 'y' } as never),
    ).rejects.toMatchObject({ status: 400 });
    // The in-process grant operations validate as the routes do.
    await expect(
      t.svc.fga.grantAsync({ subjectId: 'usr_x', roleId: 'frl_x', resourceId: 'frs_x', managedBy: '' }),
    ).rejects.toMatchObject({ status: 400, details: [{ path: 'managedBy' }] });
    await expect(t.svc.fga.revokeManagedGrantsAsync('scim:\u0000')).rejects.toMatchObject({ status: 400 });
    await expect(t.svc.fga.revokeGrantAsync('')).rejects.toMatchObject({ status: 400 });
  });
});

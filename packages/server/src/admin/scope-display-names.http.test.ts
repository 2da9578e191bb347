import { svcConsentGrantSchema, svcScopeDisplayNameSchema } from '@svc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SvcConflictError, SvcNotFoundError, SvcValidationError } from '../kernel/errors.js';
import { describeAboveStorage } from '../test-support/databases.js';
import { operatorApi } from '../test-support/operator-api.js';
import { createTestSvc, type TestSvc } from '../test-support/test-svc.js';

const API = '/svc/admin/auth/api';

/**
 * `GET, POST /scope-display-names` and `PUT, DELETE /scope-display-names/{id}`
 * (docs/reference/tokens-and-sessions.md, scope display names: API entries are `dashboard`-owned,
 * `createSvc({ scopeDisplayNames })` entries `code`-owned and closed to PUT and DELETE with a 400), through
 * the real app behind the operator guard.
 */
describeAboveStorage('operator scope display name routes', (kind) => {
  let t: TestSvc;
  beforeAll(async () => {
    t = await createTestSvc(kind, {
      scopeDisplayNames: [
        { scope: 'email', displayName: 'Your work email', description: 'The address you sign in with.' },
        { scope: 'read:calendar', displayName: 'Read your calendar' },
      ],
    });
  });
  afterAll(() => t.close());

  const call = operatorApi(API, () => t, { ordered: true });
  const auditEvents = async (kind: string) =>
    (await t.svc.database.db.selectFrom('auditEvents').selectAll().where('kind', '=', kind).execute()).map(
      (event) => ({
        actorType: event.actorType,
        ipAddress: event.ipAddress,
        data: JSON.parse(event.dataJson ?? '{}'),
      }),
    );

  it('creates, lists beside the code-owned entries, replaces and deletes a dashboard-owned entry, audited', async () => {
    const created = await call('POST', '/scope-display-names', {
      scope: 'read:todos',
      displayName: '  Read your todos  ',
      description: 'See the lists and their items.',
    });
    expect(created.status, created.text).toBe(201);
    const entry = svcScopeDisplayNameSchema.parse(created.body);
    expect(entry).toEqual({
      id: expect.stringMatching(/^sdn_/),
      scope: 'read:todos',
      displayName: 'Read your todos',
      description: 'See the lists and their items.',
      ownership: 'dashboard',
      createdAt: new Date(t.clock.now()).toISOString(),
      updatedAt: new Date(t.clock.now()).toISOString(),
    });

    const listed = await call('GET', '/scope-display-names');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      data: [
        {
          id: 'code:email',
          scope: 'email',
          displayName: 'Your work email',
          description: 'The address you sign in with.',
          ownership: 'code',
          createdAt: null,
          updatedAt: null,
        },
        expect.objectContaining({ id: 'code:read:calendar', description: null, ownership: 'code' }),
        entry,
      ],
    });

    // PUT replaces both texts: the omitted description is removed.
    const updated = await call('PUT', `/scope-display-names/${entry.id}`, { displayName: 'Read todos' });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toEqual({
      ...entry,
      displayName: 'Read todos',
      description: null,
      updatedAt: new Date(t.clock.now()).toISOString(),
    });

    const deleted = await call('DELETE', `/scope-display-names/${entry.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ deleted: true });
    expect((await call('GET', '/scope-display-names')).body).toEqual({
      data: [
        expect.objectContaining({ id: 'code:email' }),
        expect.objectContaining({ id: 'code:read:calendar' }),
      ],
    });
    for (const verb of ['created', 'updated', 'deleted']) {
      expect(await auditEvents(`admin.scope_display_name.${verb}`), verb).toEqual([
        {
          actorType: 'operator',
          ipAddress: '127.0.0.1',
          data: { scopeDisplayNameId: entry.id, scope: 'read:todos' },
        },
      ]);
    }

    // The in-process facade answers the same.
    expect(await t.svc.admin.listScopeDisplayNamesAsync()).toEqual(
      (await call('GET', '/scope-display-names')).body,
    );
  });

  it('refuses a second entry for a scope with 409, a code-owned scope included', async () => {
    const first = await call('POST', '/scope-display-names', {
      scope: 'write:todos',
      displayName: 'Change your todos',
    });
    expect(first.status).toBe(201);
    for (const scope of ['write:todos', 'email', 'read:calendar']) {
      const again = await call('POST', '/scope-display-names', { scope, displayName: 'Again' });
      expect(again.status, scope).toBe(409);
      expect(again.body).toMatchObject({ error: 'conflict', message: expect.stringContaining(`'${scope}'`) });
    }
    expect(
      (await call('POST', '/scope-display-names', { scope: 'email', displayName: 'x' })).body,
    ).toMatchObject({
      message: expect.stringContaining('set in code'),
    });
    await expect(
      t.svc.admin.createScopeDisplayNameAsync({ scope: 'write:todos', displayName: 'Again' }),
    ).rejects.toBeInstanceOf(SvcConflictError);
  });

  it('a stored entry for a scope the code names (made before the code did) stays hidden but editable by id', async () => {
    const at = t.clock.now();
    await t.svc.database.db
      .insertInto('scopeDisplayNames')
      .values({
        id: 'sdn_shadowed',
        scope: 'email',
        displayName: 'Old name',
        description: null,
        createdAt: at,
        updatedAt: at,
      })
      .execute();
    const listed = (await call('GET', '/scope-display-names')).body as { data: { id: string }[] };
    expect(listed.data.map((entry) => entry.id)).not.toContain('sdn_shadowed');
    expect(listed.data).toContainEqual(
      expect.objectContaining({ id: 'code:email', displayName: 'Your work email' }),
    );
    expect(
      (await call('PUT', '/scope-display-names/sdn_shadowed', { displayName: 'Still old' })).status,
    ).toBe(200);
    expect((await call('DELETE', '/scope-display-names/sdn_shadowed')).body).toEqual({ deleted: true });
  });

  it('refuses to change or delete a code-owned entry with 400; an unknown id is a 404', async () => {
    const put = await call('PUT', '/scope-display-names/code:email', { displayName: 'Mine now' });
    expect(put.status).toBe(400);
    expect(put.body).toEqual({
      error: 'invalid_request',
      message:
        "Scope display name 'code:email' is set in code (createSvc({ scopeDisplayNames })): change it there.",
    });
    const del = await call('DELETE', '/scope-display-names/code:email');
    expect(del.status).toBe(400);
    expect(del.body).toMatchObject({ message: expect.stringContaining('set in code') });
    await expect(t.svc.admin.deleteScopeDisplayNameAsync('code:read:calendar')).rejects.toBeInstanceOf(
      SvcValidationError,
    );
    expect((await call('GET', '/scope-display-names')).body).toMatchObject({
      data: expect.arrayContaining([
        expect.objectContaining({ id: 'code:email', displayName: 'Your work email' }),
      ]),
    });

    for (const id of ['sdn_unknown', 'code:unknown']) {
      expect((await call('PUT', `/scope-display-names/${id}`, { displayName: 'x' })).status, id).toBe(404);
      const gone = await call('DELETE', `/scope-display-names/${id}`);
      expect(gone.status, id).toBe(404);
      expect(gone.body).toEqual({ error: 'not_found', message: `Scope display name '${id}' was not found.` });
    }
    await expect(t.svc.admin.deleteScopeDisplayNameAsync('sdn_unknown')).rejects.toBeInstanceOf(
      SvcNotFoundError,
    );
  });

  it('answers 400 naming the field for bad input: scope tokens, lengths, control characters, never a 5xx', async () => {
    const bad: [unknown, string][] = [
      [{ scope: 'read todos', displayName: 'x' }, 'scope'],
      [{ scope: 'read"todos', displayName: 'x' }, 'scope'],
      [{ scope: 'read:\u0000', displayName: 'x' }, 'scope'],
      [{ scope: 'é', displayName: 'x' }, 'scope'],
      [{ scope: 'x'.repeat(201), displayName: 'x' }, 'scope'],
      [{ scope: 'auth:admin', displayName: 'x' }, 'scope'],
      [{ scope: '', displayName: 'x' }, 'scope'],
      [{ displayName: 'x' }, 'scope'],
      [{ scope: 'a:b', displayName: '   ' }, 'displayName'],
      [{ scope: 'a:b', displayName: 'x'.repeat(101) }, 'displayName'],
      [{ scope: 'a:b', displayName: 'Read\u0000todos' }, 'displayName'],
      [{ scope: 'a:b', displayName: 'Read\ntodos' }, 'displayName'],
      [{ scope: 'a:b', displayName: 'x', description: 'y'.repeat(501) }, 'description'],
      [{ scope: 'a:b', displayName: 'x', description: 'a\u0000b' }, 'description'],
      [{ scope: 'a:b', displayName: 42 }, 'displayName'],
    ];
    for (const [body, field] of bad) {
      const response = await call('POST', '/scope-display-names', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toMatchObject({
        error: 'invalid_request',
        message: expect.stringContaining(field),
      });
    }
    const { body: created } = await call('POST', '/scope-display-names', {
      scope: 'x'.repeat(200),
      displayName: 'x'.repeat(100),
      description: 'y'.repeat(500),
    });
    expect(created).toMatchObject({ scope: 'x'.repeat(200), ownership: 'dashboard' });
    for (const body of [{ displayName: '' }, { displayName: 'x', description: 'z'.repeat(501) }, {}]) {
      const response = await call('PUT', `/scope-display-names/${String(created.id)}`, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    for (const id of ['%00', 'a%0Ab']) {
      const response = await call('DELETE', `/scope-display-names/${id}`);
      expect(response.status, id).toBe(400);
      expect(response.body).toMatchObject({ message: expect.stringContaining('id') });
    }
    const malformed = await call('POST', '/scope-display-names', '{"scope":');
    expect(malformed.status).toBe(400);
  });

  it('shows display names in the users’ grant lists', async () => {
    const ann = await t.svc.admin.createUserAsync({
      displayName: 'Ann',
      email: `ann-${kind}@example.com`,
      password: null,
    });
    const client = await t.svc.admin.createClientAsync({
      clientId: 'planner',
      name: 'Planner',
      audience: 'https://api.example.com',
      redirectUris: ['https://planner.example.com/callback'],
    });
    await call('POST', '/scope-display-names', {
      scope: 'read:plans',
      displayName: 'Read your plans',
      description: 'All of them.',
    });
    await t.svc.authEngine.consents.record(ann.id, client.clientId, [
      'openid',
      'email',
      'read:plans',
      'other',
    ]);
    const listed = await call('GET', `/users/${ann.id}/grants`);
    const [grant] = svcConsentGrantSchema.array().parse((listed.body as { data: unknown[] }).data);
    expect(grant?.scopeDetails).toEqual([
      { scope: 'openid', displayName: 'Confirm who you are when you sign in', description: null },
      { scope: 'email', displayName: 'Your work email', description: 'The address you sign in with.' },
      { scope: 'read:plans', displayName: 'Read your plans', description: 'All of them.' },
      { scope: 'other', displayName: null, description: null },
    ]);
  });

  it('hides every route from callers without the operator token', async () => {
    for (const [method, path] of [
      ['GET', '/scope-display-names'],
      ['POST', '/scope-display-names'],
      ['PUT', '/scope-display-names/sdn_1'],
      ['DELETE', '/scope-display-names/code:email'],
    ] as const) {
      const response = await call(
        method,
        path,
        method === 'GET' || method === 'DELETE' ? undefined : { displayName: 'x' },
        false,
      );
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body).toEqual({ error: 'not_found', message: 'Not found.' });
    }
  });
});

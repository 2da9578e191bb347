import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../test-support/databases.js';
import type { ScimGroupMembershipChange } from './directory-events.js';
import {
  expectScimError,
  GROUP_SCHEMA,
  PATCH_SCHEMA,
  scimTenant,
  scimUser,
  type ScimTenant,
} from '../test-support/scim.js';
import { createTestSvc, type TestSvc } from '../test-support/test-svc.js';

/**
 * SCIM Users over HTTP on both databases: what the database decides (uniqueness per connection,
 * filters, paging) and the mapping to Svc accounts and memberships.
 */
describeEachDatabase('SCIM Users', (kind) => {
  let t: TestSvc;
  let acme: ScimTenant;

  beforeAll(async () => {
    t = await createTestSvc(kind);
    acme = await scimTenant(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates a Svc user with a membership in the organization, and reads it back', async () => {
    const created = await acme.call('POST', '/Users', scimUser('ann@acme.test', { externalId: 'ext-ann' }));
    expect(created.status).toBe(201);
    const id = String(created.body?.id);
    expect(created.headers.location).toBe(`http://localhost:8080/svc/scim/v2/Users/${id}`);
    expect(created.headers['content-type']).toContain('application/scim+json');
    expect(created.body).toMatchObject({
      userName: 'ann@acme.test',
      externalId: 'ext-ann',
      active: true,
      meta: { resourceType: 'User' },
    });
    expect(await t.svc.admin.userHasMembershipAsync(id, acme.organizationId)).toBe(true);
    const read = await acme.call('GET', `/Users/${id}`);
    expect(read.body).toMatchObject({ id, userName: 'ann@acme.test', name: { givenName: 'Ann' } });
  });

  it('refuses what PostgreSQL cannot store or compare: a NUL in any attribute, in an id or in a member', async () => {
    const user = await acme.call('POST', '/Users', scimUser('nul@acme.test'));
    const id = String(user.body?.id);
    const group = await acme.call('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Nul' });
    const groupId = String(group.body?.id);
    const patch = (Operations: unknown[]) => ({ schemas: [PATCH_SCHEMA], Operations });
    const refused: [string, string, unknown][] = [
      ['POST', '/Users', scimUser('a\u0000b@acme.test')],
      ['POST', '/Users', scimUser('other@acme.test', { name: { givenName: 'A\u0000n' } })],
      ['POST', '/Users', scimUser('other@acme.test', { title: 'T\u0000' })],
      ['PUT', `/Users/${id}`, scimUser('nul@acme.test', { externalId: 'e\u0000' })],
      ['PATCH', `/Users/${id}`, patch([{ op: 'replace', path: 'displayName', value: 'D\u0000' }])],
      ['PATCH', `/Users/${id}`, patch([{ op: 'add', value: { userName: '\u0000' } }])],
      ['POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'G\u0000' }],
      ['PATCH', `/Groups/${groupId}`, patch([{ op: 'replace', path: 'externalId', value: '\u0000' }])],
      // A member no user can be: an unknown member is refused the same way.
      ['POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'M', members: [{ value: 'usr_\u0000' }] }],
      ['PATCH', `/Groups/${groupId}`, patch([{ op: 'add', path: 'members', value: [{ value: '\u0000' }] }])],
    ];
    for (const [method, path, body] of refused) {
      expectScimError(await acme.call(method, path, body), 400, 'invalidValue');
    }
    for (const [method, path] of [
      ['GET', '/Users/usr_%00'],
      ['PUT', '/Users/x%00y'],
      ['DELETE', '/Users/x%01y'],
      ['GET', '/Groups/sgr_%00'],
      ['DELETE', '/Groups/x%00y'],
    ] as const) {
      const body = method === 'PUT' ? scimUser('nul@acme.test') : undefined;
      expectScimError(await acme.call(method, path, body), 404);
    }
    const deep = `{"schemas":["${GROUP_SCHEMA}"],"displayName":"D","x":${'['.repeat(40)}${']'.repeat(40)}}`;
    expectScimError(await acme.call('POST', '/Groups', deep), 400, 'invalidSyntax');
    expect((await acme.call('GET', `/Users/${id}`)).body).toMatchObject({ userName: 'nul@acme.test' });
    expect((await acme.call('GET', `/Groups/${groupId}`)).body).toMatchObject({ displayName: 'Nul' });
    expect(
      (await acme.call('GET', '/Users?filter=userName%20eq%20%22other%40acme.test%22')).body,
    ).toMatchObject({
      totalResults: 0,
    });
  });

  it('answers 409 uniqueness for a userName taken in the connection, whatever its case', async () => {
    await acme.call('POST', '/Users', scimUser('bob@acme.test'));
    expectScimError(await acme.call('POST', '/Users', scimUser('BOB@acme.test')), 409, 'uniqueness');
  });

  it('filters with eq on userName, externalId and emails.value, and refuses other filters', async () => {
    await acme.call('POST', '/Users', scimUser('carol@acme.test', { externalId: 'ext-carol' }));
    for (const filter of [
      'userName eq "CAROL@acme.test"',
      'externalId eq "ext-carol"',
      'emails.value eq "carol@acme.test"',
    ]) {
      const listed = await acme.call('GET', `/Users?filter=${encodeURIComponent(filter)}`);
      expect(listed.body, filter).toMatchObject({
        totalResults: 1,
        Resources: [{ userName: 'carol@acme.test' }],
      });
    }
    const none = await acme.call(
      'GET',
      `/Users?filter=${encodeURIComponent('userName eq "nobody@acme.test"')}`,
    );
    expect(none.body).toMatchObject({ totalResults: 0, Resources: [] });
    for (const filter of [
      'userName co "carol"',
      'userName eq',
      'displayName eq "x"',
      'userName eq "a" or userName eq "b"',
    ]) {
      expectScimError(
        await acme.call('GET', `/Users?filter=${encodeURIComponent(filter)}`),
        400,
        'invalidFilter',
      );
    }
  });

  it('matches emails.value on any address of the user, of the type a value path names', async () => {
    const emails = [
      { value: 'erin@acme.test', type: 'work', primary: true },
      { value: 'erin@home.test', type: 'Home' },
    ];
    const created = await acme.call('POST', '/Users', scimUser('erin', { emails }));
    const id = String(created.body?.id);
    const matches = async (filter: string) => {
      const listed = await acme.call('GET', `/Users?filter=${encodeURIComponent(filter)}`);
      expect(listed.status, filter).toBe(200);
      return (listed.body?.Resources as { id: string }[]).map((resource) => resource.id);
    };
    expect(await matches('emails.value eq "ERIN@home.test"')).toEqual([id]);
    expect(await matches('emails[type eq "work"].value eq "erin@acme.test"')).toEqual([id]);
    expect(await matches('emails[type eq "work"].value eq "erin@home.test"')).toEqual([]);
    expect(await matches('emails[value eq "erin@home.test"]')).toEqual([id]);
    expect(await matches('emails[type eq "home" and value eq "erin@home.test"]')).toEqual([id]);
    for (const filter of [
      'emails[primary eq true].value eq "erin@acme.test"',
      'emails[type eq "work" or value eq "erin@acme.test"]',
      'emails[type eq "work"].display eq "erin"',
    ]) {
      expectScimError(
        await acme.call('GET', `/Users?filter=${encodeURIComponent(filter)}`),
        400,
        'invalidFilter',
      );
    }

    const patched = await acme.call('PATCH', `/Users/${id}`, {
      schemas: [PATCH_SCHEMA],
      Operations: [{ op: 'remove', path: 'emails[type eq "home"]' }],
    });
    expect(patched.status).toBe(200);
    expect(await matches('emails.value eq "erin@home.test"')).toEqual([]);
    expect(await matches('emails.value eq "erin@acme.test"')).toEqual([id]);

    // Longer than an address, longer than 1,024 bytes as a lookup key (five labels of ideographs far
    // apart, whose A-labels are three times as long), a long type.
    const far = Array.from({ length: 62 }, (_, i) =>
      String.fromCodePoint(0x3400 + ((i * 15_485_863) % 0x6000)),
    );
    for (const item of [
      { value: `${'e'.repeat(320)}@acme.test`, type: 'other' },
      { value: `e@${Array(5).fill(far.join('')).join('.')}`, type: 'other' },
      { value: 'erin@other.test', type: 'o'.repeat(65) },
    ]) {
      expectScimError(
        await acme.call('PUT', `/Users/${id}`, scimUser('erin', { emails: [...emails, item] })),
        400,
        'invalidValue',
      );
    }
  });

  it('pages with startIndex and count', async () => {
    const other = await scimTenant(t, 'Paging');
    for (const name of ['p1', 'p2', 'p3', 'p4', 'p5']) {
      t.clock.advance(1000);
      await other.call('POST', '/Users', scimUser(`${name}@paging.test`));
    }
    const page = await other.call('GET', '/Users?startIndex=2&count=2');
    expect(page.body).toMatchObject({
      totalResults: 5,
      startIndex: 2,
      itemsPerPage: 2,
      Resources: [{ userName: 'p2@paging.test' }, { userName: 'p3@paging.test' }],
    });
    const past = await other.call('GET', '/Users?startIndex=9&count=2');
    expect(past.body).toMatchObject({ totalResults: 5, itemsPerPage: 0, Resources: [] });
    const clamped = await other.call('GET', '/Users?startIndex=0&count=-1');
    expect(clamped.body).toMatchObject({ totalResults: 5, startIndex: 1, itemsPerPage: 0 });
    expectScimError(await other.call('GET', '/Users?count=ten'), 400, 'invalidValue');
  });

  it('deprovisions on active=false and on DELETE for this organization only', async () => {
    const created = await acme.call('POST', '/Users', scimUser('dan@acme.test'));
    const id = String(created.body?.id);
    const other = await t.svc.admin.createOrganizationAsync({ name: 'Other' });
    await t.svc.admin.createMembershipAsync({ organizationId: other.id, userId: id, role: 'member' });
    const patched = await acme.call('PATCH', `/Users/${id}`, {
      schemas: [PATCH_SCHEMA],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    expect(patched.body).toMatchObject({ active: false });
    expect(await t.svc.admin.userHasMembershipAsync(id, acme.organizationId)).toBe(false);
    expect(await t.svc.admin.userHasMembershipAsync(id, other.id)).toBe(true);
    await acme.call('PATCH', `/Users/${id}`, {
      schemas: [PATCH_SCHEMA],
      Operations: [{ op: 'replace', value: { active: true } }],
    });
    expect(await t.svc.admin.userHasMembershipAsync(id, acme.organizationId)).toBe(true);
    expect((await acme.call('DELETE', `/Users/${id}`)).status).toBe(204);
    expectScimError(await acme.call('GET', `/Users/${id}`), 404);
    expect(await t.svc.admin.userHasMembershipAsync(id, acme.organizationId)).toBe(false);
    expect(await t.svc.admin.userHasMembershipAsync(id, other.id)).toBe(true);
  });

  it('takes a deprovisioned user out of the connection’s groups, published before the answer', async () => {
    const changes: ScimGroupMembershipChange[] = [];
    t.svc.scimEvents.subscribe({
      membershipChanged: (change) => {
        changes.push(change);
        return Promise.resolve();
      },
    });
    const user = await acme.call('POST', '/Users', scimUser('gus@acme.test'));
    const id = String(user.body?.id);
    const group = await acme.call('POST', '/Groups', {
      schemas: [GROUP_SCHEMA],
      displayName: 'Deprovisioned',
      members: [{ value: id }],
    });
    changes.length = 0;
    await acme.call('PATCH', `/Users/${id}`, {
      schemas: [PATCH_SCHEMA],
      Operations: [{ op: 'replace', path: 'active', value: false }],
    });
    expect(changes).toEqual([
      expect.objectContaining({
        connectionId: acme.connectionId,
        organizationId: acme.organizationId,
        group: expect.objectContaining({ id: group.body?.id, displayName: 'Deprovisioned' }),
        addedUserIds: [],
        removedUserIds: [id],
        deleted: false,
      }),
    ]);
    expect((await acme.call('GET', `/Groups/${String(group.body?.id)}`)).body).toMatchObject({ members: [] });
  });
});

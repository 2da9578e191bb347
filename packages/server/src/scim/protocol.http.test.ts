import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeAboveStorage } from '../test-support/databases.js';
import { givenActiveDomainClaim } from '../test-support/federation/sso-connections.js';
import {
  ERROR_SCHEMA,
  expectScimError,
  GROUP_SCHEMA,
  PATCH_SCHEMA,
  scimCall,
  scimTenant,
  scimUser,
  type ScimTenant,
} from '../test-support/scim.js';
import { createTestSvc, type TestSvc } from '../test-support/test-svc.js';

/**
 * The SCIM surface over HTTP: bearer tokens scoped to their organization and throttled when wrong,
 * malformed bodies, filters and queries as 4xx SCIM errors, projection, groups, discovery documents.
 */
describeAboveStorage('SCIM service provider', (kind) => {
  let t: TestSvc;
  let acme: ScimTenant;
  let globex: ScimTenant;

  beforeAll(async () => {
    t = await createTestSvc(kind, { failureLimits: { scimTokenIp: { threshold: 3 } } });
    [acme, globex] = [await scimTenant(t, 'Acme'), await scimTenant(t, 'Globex')];
  });
  afterAll(async () => {
    await t.close();
  });

  it('scopes a token to its own connection: another organization’s users and groups are 404 and unlisted', async () => {
    // Acme proved acme.test: its users' addresses are verified, so Globex may link them.
    await givenActiveDomainClaim(t, acme.organizationId, 'acme.test');
    const user = await acme.call('POST', '/Users', scimUser('scoped@acme.test'));
    const group = await acme.call('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Acme admins' });
    const userId = String(user.body?.id);
    const groupId = String(group.body?.id);
    expectScimError(await globex.call('GET', `/Users/${userId}`), 404);
    expectScimError(await globex.call('GET', `/Groups/${groupId}`), 404);
    expectScimError(await globex.call('DELETE', `/Users/${userId}`), 404);
    expectScimError(
      await globex.call('PATCH', `/Groups/${groupId}`, {
        schemas: [PATCH_SCHEMA],
        Operations: [{ op: 'replace', path: 'displayName', value: 'Taken over' }],
      }),
      404,
    );
    expect((await globex.call('GET', '/Users')).body).toMatchObject({ totalResults: 0 });
    // The same (verified) address is a different SCIM user in Globex, linked to the same account.
    const linked = await globex.call('POST', '/Users', scimUser('scoped@acme.test'));
    expect(linked.body?.id).toBe(userId);
    // Acme's group cannot take Globex's members, and Globex cannot add Acme-only users.
    const stranger = await acme.call('POST', '/Users', scimUser('stranger@acme.test'));
    expectScimError(
      await globex.call('POST', '/Groups', {
        schemas: [GROUP_SCHEMA],
        displayName: 'Mixed',
        members: [{ value: String(stranger.body?.id) }],
      }),
      400,
      'invalidValue',
    );
    expect(await t.svc.admin.userHasMembershipAsync(userId, acme.organizationId)).toBe(true);
    expect(await t.svc.admin.userHasMembershipAsync(userId, globex.organizationId)).toBe(true);
    await globex.call('DELETE', `/Users/${userId}`);
    expect(await t.svc.admin.userHasMembershipAsync(userId, acme.organizationId)).toBe(true);
    expect(await t.svc.admin.userHasMembershipAsync(userId, globex.organizationId)).toBe(false);
  });

  it('answers 401 with the SCIM error schema, and 429 after repeated wrong tokens from one address', async () => {
    const from = (remoteAddress: string, token: string | undefined) =>
      t.svc.app.inject({
        method: 'GET',
        url: '/svc/scim/v2/Users',
        remoteAddress,
        headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
      });
    const missing = await from('203.0.113.7', undefined);
    expect(missing.statusCode).toBe(401);
    expect(JSON.parse(missing.body)).toMatchObject({ schemas: [ERROR_SCHEMA], status: '401' });
    expect(missing.headers['www-authenticate']).toBe('Bearer');
    expect((await from('203.0.113.7', 'svcscim_wrong')).statusCode).toBe(401);
    expect((await from('203.0.113.7', 'Basic abc')).statusCode).toBe(401);
    const locked = await from('203.0.113.7', acme.token);
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await from('203.0.113.8', acme.token)).statusCode).toBe(200);
    t.clock.advance(16 * 60 * 1000);
    expect((await from('203.0.113.7', acme.token)).statusCode).toBe(200);
  });

  it("refuses a deactivated organization's connection with 403 at once, not counted as a wrong token, until it is reactivated", async () => {
    const initech = await scimTenant(t, 'Initech');
    expect((await initech.call('GET', '/Users')).status).toBe(200);
    await t.svc.admin.deactivateOrganizationAsync(initech.organizationId);
    for (let i = 0; i < 4; i += 1) {
      const refused = await initech.call('POST', '/Users', scimUser(`u${i}@initech.test`));
      expectScimError(refused, 403, undefined);
      expect(String(refused.body?.detail)).toContain('organization is deactivated');
    }
    expect((await acme.call('GET', '/Users')).status).toBe(200);
    await t.svc.admin.reactivateOrganizationAsync(initech.organizationId);
    expect((await initech.call('POST', '/Users', scimUser('back@initech.test'))).status).toBe(201);
  });

  it("takes a group body of thousands of members, past other routes' limit, and refuses one past 2 MiB with 413", async () => {
    const member = await acme.call('POST', '/Users', scimUser('many@acme.test'));
    const id = String(member.body?.id);
    // 6,000 entries (about 420 KB): more than Svc's 256 KiB limit elsewhere; the one real member counts.
    const members = Array.from({ length: 6_000 }, () => ({
      value: id,
      display: 'A member of a large group',
    }));
    const created = await acme.call('POST', '/Groups', {
      schemas: [GROUP_SCHEMA],
      displayName: 'Everyone at Acme',
      members,
    });
    expect(created.status).toBe(201);
    expect(created.body?.members).toEqual([expect.objectContaining({ value: id })]);
    const huge = await acme.call('POST', '/Groups', {
      schemas: [GROUP_SCHEMA],
      displayName: 'Too large',
      members: Array.from({ length: 40_000 }, () => ({ value: id, display: 'A member of a large group' })),
    });
    expectScimError(huge, 413, undefined);
  });

  it('answers malformed bodies, filters and queries with 4xx SCIM errors', async () => {
    const bad: [string, string, unknown, number, string | undefined][] = [
      ['POST', '/Users', '{"userName": ', 400, 'invalidSyntax'],
      ['POST', '/Users', '[]', 400, 'invalidSyntax'],
      ['POST', '/Users', {}, 400, 'invalidValue'],
      ['POST', '/Users', scimUser('x@acme.test', { active: 'perhaps' }), 400, 'invalidValue'],
      ['POST', '/Users', scimUser('x@acme.test', { emails: 'x@acme.test' }), 400, 'invalidValue'],
      ['POST', '/Users', { schemas: [], userName: 'not-an-address' }, 400, 'invalidValue'],
      ['POST', '/Groups', { displayName: 7 }, 400, 'invalidValue'],
      // 1,000 characters of a non-Latin script: 3,000 bytes, more than an index entry of PostgreSQL holds.
      ['POST', '/Users', scimUser('x@acme.test', { externalId: '漢'.repeat(1000) }), 400, 'invalidValue'],
      ['POST', '/Groups', { displayName: 'G', externalId: '漢'.repeat(1000) }, 400, 'invalidValue'],
      ['GET', '/Users?filter=userName%20eq%20%22unterminated', undefined, 400, 'invalidFilter'],
      ['GET', '/Users?filter=userName%20sw%20%22a%22', undefined, 400, 'invalidFilter'],
      ['GET', '/Users?filter=userName%20eq%20true', undefined, 400, 'invalidFilter'],
      ['GET', '/Groups?filter=members%20eq%20%22x%22', undefined, 400, 'invalidFilter'],
      ['GET', '/Users?filter=a&filter=b', undefined, 400, 'invalidValue'],
      ['GET', '/Users?startIndex=1.5', undefined, 400, 'invalidValue'],
      ['GET', '/Users?attributes=userName,,name', undefined, 400, 'invalidValue'],
      ['GET', '/Users/usr_missing', undefined, 404, undefined],
      ['GET', '/Nope', undefined, 404, undefined],
      ['GET', '/ResourceTypes/Device', undefined, 404, undefined],
    ];
    for (const [method, path, payload, status, scimType] of bad) {
      expectScimError(await acme.call(method, path, payload), status, scimType);
    }
  });

  it('refuses malformed PATCH bodies and paths with 400', async () => {
    const user = await acme.call('POST', '/Users', scimUser('patchy@acme.test'));
    const path = `/Users/${String(user.body?.id)}`;
    const patch = (Operations: unknown, schemas: unknown = [PATCH_SCHEMA]) =>
      acme.call('PATCH', path, { schemas, Operations });
    expectScimError(await patch([{ op: 'replace', path: 'active', value: false }], []), 400, 'invalidSyntax');
    expectScimError(await patch([]), 400, 'invalidSyntax');
    expectScimError(await patch([{ op: 'move', path: 'active', value: false }]), 400, 'invalidSyntax');
    expectScimError(await patch([{ op: 'add', path: 'title' }]), 400, 'invalidSyntax');
    expectScimError(await patch([{ op: 'remove' }]), 400, 'noTarget');
    expectScimError(await patch([{ op: 'replace', value: 'x' }]), 400, 'invalidSyntax');
    expectScimError(await patch([{ op: 'replace', path: 'emails[type eq', value: 'x' }]), 400, 'invalidPath');
    expectScimError(await patch([{ op: 'replace', path: 'name.a.b', value: 'x' }]), 400, 'invalidPath');
    expectScimError(
      await patch([{ op: 'replace', path: 'urn:example:other:User:x', value: 'x' }]),
      400,
      'invalidPath',
    );
    expectScimError(
      await patch([
        { op: 'replace', path: 'emails[type eq "home" and primary eq true].value', value: 'a@b.test' },
      ]),
      400,
      'noTarget',
    );
    expectScimError(await patch([{ op: 'replace', path: 'active', value: 'maybe' }]), 400, 'invalidValue');
    expect((await acme.call('GET', path)).body).toMatchObject({ active: true, userName: 'patchy@acme.test' });
  });

  it('applies attributes and excludedAttributes to users, lists and group PATCH answers', async () => {
    const user = await acme.call('POST', '/Users', scimUser('projected@acme.test', { title: 'Boss' }));
    const id = String(user.body?.id);
    const only = await acme.call('GET', `/Users/${id}?attributes=userName,name.givenName`);
    expect(only.body).toEqual({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      id,
      userName: 'projected@acme.test',
      name: { givenName: 'Ann' },
    });
    const without = await acme.call(
      'GET',
      `/Users/${id}?excludedAttributes=emails,meta,urn:ietf:params:scim:schemas:core:2.0:User:title`,
    );
    expect(without.body).not.toHaveProperty('emails');
    expect(without.body).not.toHaveProperty('title');
    expect(without.body).toHaveProperty('userName');
    const listed = await acme.call(
      'GET',
      `/Users?filter=${encodeURIComponent(`id eq "${id}"`)}&attributes=active`,
    );
    expect(listed.body).toMatchObject({ totalResults: 1, Resources: [{ id, active: true }] });
    expect((listed.body?.Resources as Record<string, unknown>[])[0]).not.toHaveProperty('userName');
    const group = await acme.call('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Projected' });
    const rename = {
      schemas: [PATCH_SCHEMA],
      Operations: [{ op: 'replace', path: 'displayName', value: 'Renamed' }],
    };
    expect((await acme.call('PATCH', `/Groups/${String(group.body?.id)}`, rename)).status).toBe(204);
    const projected = await acme.call(
      'PATCH',
      `/Groups/${String(group.body?.id)}?attributes=displayName`,
      rename,
    );
    expect(projected.status).toBe(200);
    expect(projected.body).toMatchObject({ displayName: 'Renamed' });
  });

  it('keeps group displayName and externalId unique per connection (409), not across connections', async () => {
    const body = { schemas: [GROUP_SCHEMA], displayName: 'Engineering', externalId: 'grp-eng' };
    expect((await acme.call('POST', '/Groups', body)).status).toBe(201);
    expectScimError(
      await acme.call('POST', '/Groups', { ...body, displayName: 'ENGINEERING', externalId: 'other' }),
      409,
      'uniqueness',
    );
    expectScimError(await acme.call('POST', '/Groups', { ...body, displayName: 'Other' }), 409, 'uniqueness');
    expect((await globex.call('POST', '/Groups', body)).status).toBe(201);
    const second = await acme.call('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Second' });
    expectScimError(
      await acme.call('PUT', `/Groups/${String(second.body?.id)}`, {
        schemas: [GROUP_SCHEMA],
        displayName: 'engineering',
      }),
      409,
      'uniqueness',
    );
  });

  it('serves ServiceProviderConfig, ResourceTypes and Schemas behind the token', async () => {
    expect((await scimCall(t, undefined, 'GET', '/ServiceProviderConfig')).status).toBe(401);
    const config = await acme.call('GET', '/ServiceProviderConfig');
    expect(config.body).toMatchObject({
      patch: { supported: true },
      bulk: { supported: false },
      filter: { supported: true, maxResults: 200 },
      changePassword: { supported: false },
      sort: { supported: false },
      etag: { supported: false },
      authenticationSchemes: [{ type: 'oauthbearertoken' }],
    });
    const types = await acme.call('GET', '/ResourceTypes');
    expect(types.body).toMatchObject({ totalResults: 2, Resources: [{ id: 'User' }, { id: 'Group' }] });
    expect((await acme.call('GET', '/ResourceTypes/User')).body).toMatchObject({
      schemaExtensions: [{ schema: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User' }],
    });
    const schema = await acme.call('GET', '/Schemas/urn:ietf:params:scim:schemas:core:2.0:Group');
    expect(schema.body).toMatchObject({ id: 'urn:ietf:params:scim:schemas:core:2.0:Group', name: 'Group' });
  });
});

import {
  auditEventPageSchema,
  pageSchema,
  svcClientSchema,
  svcCreatedClientSchema,
  svcMembershipSchema,
  svcOrganizationMemberSchema,
  svcOrganizationSchema,
  svcUserMembershipSchema,
  svcUserSchema,
} from '@svc/contract';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { NOT_FOUND_BODY } from '../http/errors.js';
import { describeAboveStorage } from '../test-support/databases.js';
import {
  createDirectHarness,
  DIRECT_PASSWORD,
  unique,
  type DirectHarness,
} from '../test-support/direct-test-app.js';
import { basicAuth, form } from '../test-support/oauth-http.js';

const ADMIN = '/svc/admin/auth/api';
const AUDIT = '/svc/admin/audit/api';

describeAboveStorage('operator record routes', (kind) => {
  let h: DirectHarness;
  beforeAll(async () => {
    h = await createDirectHarness(kind);
  });
  afterAll(() => h.close());

  const call = async (method: 'GET' | 'POST' | 'PATCH', path: string, payload?: object) => {
    const options: InjectOptions = { method, url: `${ADMIN}${path}`, headers: h.t.operator };
    if (payload !== undefined) options.payload = payload;
    const response = await h.inject(options);
    expect(response.statusCode, response.body).toBeLessThan(500);
    expect(response.headers['cache-control']).toBe('no-store');
    return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
  };
  const auditOf = async (kind: string) => {
    const url = `${AUDIT}/events?kind=${kind}&limit=200`;
    const response = await h.inject({ method: 'GET', url, headers: h.t.operator });
    return auditEventPageSchema.parse(response.json()).data.reverse();
  };
  const passwordLogin = (email: string, password: string, clientId: string) =>
    h.post('/password/login', { email, password, clientId });

  it('reads a user without any hash, and 404s an unknown one', async () => {
    const user = await h.given.user();
    const read = await call('GET', `/users/${user.id}`);
    expect(read.status).toBe(200);
    expect(svcUserSchema.strict().parse(read.body)).toEqual(user);
    expect(JSON.stringify(read.body)).not.toContain('argon2');
    expect(await call('GET', '/users/usr_unknown')).toEqual({
      status: 404,
      body: { error: 'not_found', message: "User 'usr_unknown' was not found." },
    });
    expect((await call('GET', `/users/${encodeURIComponent('usr_\u0000x')}`)).status).toBe(400);
  });

  it('patches a user: keys in any case, a new email unverified under its lookup key, a password hashed', async () => {
    const client = await h.given.client();
    const user = await h.given.user();
    const other = await h.given.user();
    const email = `${unique('renamed')}@Example.com`;
    const patched = await call('PATCH', `/users/${user.id}`, {
      DisplayName: 'Renamed Ann',
      EMAIL: ` ${email} `,
      password: 'a brand new passphrase',
    });
    expect(patched.status).toBe(200);
    expect(svcUserSchema.strict().parse(patched.body)).toMatchObject({
      displayName: 'Renamed Ann',
      email,
      emailVerified: false,
      hasPassword: true,
      active: true,
    });
    const row = await h.t.svc.database.db
      .selectFrom('users')
      .select(['emailKey', 'passwordHash'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.emailKey).toBe(email.toUpperCase());
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);

    // The new address signs in under its normalized key, with the new password only.
    expect(
      (await passwordLogin(email.toLowerCase(), 'a brand new passphrase', client.clientId)).statusCode,
    ).toBe(200);
    expect((await passwordLogin(email, DIRECT_PASSWORD, client.clientId)).statusCode).toBe(401);

    // Another user's address, in another case, is a 409; nothing changed.
    const taken = await call('PATCH', `/users/${user.id}`, { email: other.email.toUpperCase() });
    expect(taken).toMatchObject({ status: 409, body: { error: 'conflict' } });
    expect((await call('GET', `/users/${user.id}`)).body).toMatchObject({ email });

    // null removes the password.
    expect((await call('PATCH', `/users/${user.id}`, { password: null })).body).toMatchObject({
      hasPassword: false,
    });

    const updates = (await auditOf('admin.user.updated')).filter((event) => event.userId === user.id);
    expect(updates.map((event) => event.data.changed).sort()).toEqual([
      ['displayName', 'email', 'password'],
      ['password'],
    ]);
    for (const event of updates) expect(event.actorType).toBe('operator');
    expect(JSON.stringify(await auditOf('admin.*'))).not.toContain('brand new passphrase');
  });

  it('refuses bad user patches with a 400 naming the field, and unknown users with a 404', async () => {
    const user = await h.given.user();
    for (const [body, field] of [
      [{ password: 'short' }, 'password'],
      [{ email: 'not-an-address' }, 'email'],
      [{ displayName: '' }, 'displayName'],
      [{ displayName: 'line\u0000break' }, 'displayName'],
      [{ active: 'no' }, 'active'],
    ] as const) {
      const refused = await call('PATCH', `/users/${user.id}`, body);
      expect(refused, JSON.stringify(body)).toMatchObject({
        status: 400,
        body: { error: 'invalid_request', details: [expect.objectContaining({ path: field })] },
      });
    }
    const notObject = await h.inject({
      method: 'PATCH',
      url: `${ADMIN}/users/${user.id}`,
      headers: { ...h.t.operator, 'content-type': 'application/json' },
      payload: '[]',
    });
    expect(notObject.statusCode).toBe(400);
    expect((await call('PATCH', '/users/usr_unknown', { displayName: 'X' })).status).toBe(404);
    // An empty patch changes nothing and records nothing.
    expect((await call('PATCH', `/users/${user.id}`, {})).body).toEqual(user);
    expect((await auditOf('admin.user.updated')).filter((e) => e.userId === user.id)).toEqual([]);
  });

  it('reads and patches an organization; a taken slug is a 409', async () => {
    const organization = await h.given.organization();
    const other = await h.given.organization();
    expect(
      svcOrganizationSchema.strict().parse((await call('GET', `/organizations/${organization.id}`)).body),
    ).toEqual({ ...organization, active: true });
    const slug = unique('renamed').toLowerCase();
    const patched = await call('PATCH', `/organizations/${organization.id}`, { NAME: 'Renamed', slug });
    expect(patched).toMatchObject({ status: 200, body: { name: 'Renamed', slug, active: true } });
    expect(await call('PATCH', `/organizations/${organization.id}`, { slug: other.slug })).toMatchObject({
      status: 409,
      body: { error: 'conflict' },
    });
    expect(await call('PATCH', `/organizations/${organization.id}`, { slug: 'Not A Slug' })).toMatchObject({
      status: 400,
      body: { details: [expect.objectContaining({ path: 'slug' })] },
    });
    expect((await call('GET', '/organizations/org_unknown')).status).toBe(404);
    expect((await call('PATCH', '/organizations/org_unknown', { name: 'X' })).status).toBe(404);
    expect((await auditOf('admin.organization.updated')).at(-1)).toMatchObject({
      organizationId: organization.id,
      actorType: 'operator',
      data: { changed: ['name', 'slug'] },
    });
  });

  it('lists memberships by organization and by user, and patches one', async () => {
    const organization = await h.given.organization();
    const [ann, bob] = [await h.given.user(), await h.given.user()];
    await h.given.membership(organization.id, ann.id, 'owner');
    h.t.clock.advance(1000);
    await h.given.membership(organization.id, bob.id);
    const members = pageSchema(svcOrganizationMemberSchema.strict()).parse(
      (await call('GET', `/organizations/${organization.id}/memberships?limit=1`)).body,
    );
    expect(members.data.map((m) => m.userId)).toEqual([bob.id]);
    expect(members.data[0]?.user).toEqual({ id: bob.id, email: bob.email, displayName: bob.displayName });
    expect(members.nextCursor).not.toBeNull();
    const rest = await call(
      'GET',
      `/organizations/${organization.id}/memberships?cursor=${encodeURIComponent(members.nextCursor ?? '')}`,
    );
    expect(rest.body).toMatchObject({ data: [{ userId: ann.id, role: 'owner' }], nextCursor: null });

    const annMemberships = pageSchema(svcUserMembershipSchema.strict()).parse(
      (await call('GET', `/users/${ann.id}/memberships`)).body,
    );
    expect(annMemberships.data).toHaveLength(1);
    const { id, name, slug } = organization;
    expect(annMemberships.data[0]?.organization).toEqual({ id, name, slug });
    const membershipId = annMemberships.data[0]!.id;
    expect(await call('PATCH', `/memberships/${membershipId}`, { Role: ' Admin ' })).toMatchObject({
      status: 200,
      body: { id: membershipId, role: 'admin', active: true },
    });
    expect((await call('PATCH', `/memberships/${membershipId}`, { role: '' })).status).toBe(400);
    expect((await call('PATCH', '/memberships/mem_unknown', { role: 'member' })).status).toBe(404);
    const read = await call('GET', `/memberships/${membershipId}`);
    expect(svcMembershipSchema.strict().parse(read.body)).toMatchObject({ id: membershipId, role: 'admin' });
    expect((await call('GET', '/memberships/mem_unknown')).status).toBe(404);
    expect((await call('GET', '/organizations/org_unknown/memberships')).status).toBe(404);
    expect((await call('GET', '/users/usr_unknown/memberships')).status).toBe(404);
    expect((await call('GET', `/users/${ann.id}/memberships?limit=0`)).status).toBe(400);
    expect((await auditOf('admin.membership.updated')).at(-1)).toMatchObject({
      userId: ann.id,
      organizationId: organization.id,
      data: { membershipId, changed: ['role'] },
    });
  });

  it('reads and patches a client without ever showing its secret', async () => {
    const created = await h.given.client({ tokenEndpointAuthMethod: 'client_secret_basic' });
    const read = await call('GET', `/clients/${created.clientId}`);
    expect(svcClientSchema.strict().parse(read.body)).toMatchObject({
      clientId: created.clientId,
      active: true,
    });
    expect(JSON.stringify(read.body)).not.toContain(created.clientSecret);
    const patched = await call('PATCH', `/clients/${created.clientId}`, {
      name: 'Renamed App',
      RedirectUris: ['https://app.example.com/other', 'https://app.example.com/other'],
      postLogoutRedirectUris: ['https://app.example.com/signed-out'],
      allowedScopes: ['openid'],
      tokenEndpointAuthMethod: 'client_secret_post',
      allowClientCredentials: true,
    });
    expect(patched.status).toBe(200);
    expect(svcClientSchema.strict().parse(patched.body)).toMatchObject({
      name: 'Renamed App',
      redirectUris: ['https://app.example.com/other'],
      postLogoutRedirectUris: ['https://app.example.com/signed-out'],
      allowedScopes: ['openid'],
      tokenEndpointAuthMethod: 'client_secret_post',
      allowClientCredentials: true,
    });
    expect(JSON.stringify(patched.body)).not.toContain('clientSecret');
    // The secret survived the move between the two secret methods.
    const granted = await h.inject({
      method: 'POST',
      url: `${h.authBase}/token`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({
        grant_type: 'client_credentials',
        client_id: created.clientId,
        client_secret: created.clientSecret ?? '',
      }),
    });
    expect(granted.statusCode, granted.body).toBe(200);
  });

  it('refuses bad client patches: a changed client type, client credentials for a public client, bad URIs', async () => {
    const publicClient = await h.given.client();
    const confidential = await h.given.client({ tokenEndpointAuthMethod: 'client_secret_basic' });
    for (const [clientId, body, field] of [
      [publicClient.clientId, { tokenEndpointAuthMethod: 'client_secret_basic' }, 'tokenEndpointAuthMethod'],
      [confidential.clientId, { tokenEndpointAuthMethod: 'none' }, 'tokenEndpointAuthMethod'],
      [publicClient.clientId, { allowClientCredentials: true }, 'allowClientCredentials'],
      [publicClient.clientId, { redirectUris: ['javascript:alert(1)'] }, 'redirectUris.0'],
      [publicClient.clientId, { postLogoutRedirectUris: ['/relative'] }, 'postLogoutRedirectUris.0'],
      [publicClient.clientId, { allowedScopes: ['auth:admin'] }, 'allowedScopes.0'],
      [publicClient.clientId, { name: 42 }, 'name'],
    ] as const) {
      expect(await call('PATCH', `/clients/${clientId}`, body), JSON.stringify(body)).toMatchObject({
        status: 400,
        body: { error: 'invalid_request', details: [expect.objectContaining({ path: field })] },
      });
    }
    expect((await call('GET', '/clients/no-such-client')).status).toBe(404);
    expect((await call('PATCH', '/clients/no-such-client', { name: 'X' })).status).toBe(404);
    expect((await call('GET', `/clients/${encodeURIComponent('bad id')}`)).status).toBe(400);
  });

  it('rotates a confidential client secret: shown once, the old one refused at /token at once, the new one accepted', async () => {
    const created = await h.given.client({
      tokenEndpointAuthMethod: 'client_secret_basic',
      allowClientCredentials: true,
    });
    const oldSecret = created.clientSecret ?? '';
    const token = (secret: string) =>
      h.inject({
        method: 'POST',
        url: `${h.authBase}/token`,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: basicAuth(created.clientId, secret),
        },
        payload: form({ grant_type: 'client_credentials' }),
      });
    expect((await token(oldSecret)).statusCode).toBe(200);

    const rotated = await call('POST', `/clients/${created.clientId}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const { clientSecret } = svcCreatedClientSchema.strict().parse(rotated.body);
    expect(clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(clientSecret).not.toBe(oldSecret);
    const stored = await h.t.svc.database.db
      .selectFrom('clients')
      .select('clientSecretHash')
      .where('clientId', '=', created.clientId)
      .executeTakeFirstOrThrow();
    expect(stored.clientSecretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify((await call('GET', `/clients/${created.clientId}`)).body)).not.toContain(
      clientSecret ?? '',
    );

    const refused = await token(oldSecret);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ error: 'invalid_client' });
    expect((await token(clientSecret ?? '')).statusCode).toBe(200);

    const [event] = (await auditOf('admin.client.secret_rotated')).filter(
      (e) => e.clientId === created.clientId,
    );
    expect(event).toMatchObject({ actorType: 'operator', clientId: created.clientId });
    expect(JSON.stringify(event)).not.toContain(clientSecret ?? '');

    const publicClient = await h.given.client();
    expect((await call('POST', `/clients/${publicClient.clientId}/rotate-secret`)).status).toBe(400);
    expect((await call('POST', '/clients/no-such-client/rotate-secret')).status).toBe(404);
  });

  it('answers every record route with the unknown-route 404 without operator credentials', async () => {
    const user = await h.given.user();
    const organization = await h.given.organization();
    const client = await h.given.client({ tokenEndpointAuthMethod: 'client_secret_basic' });
    const requests: InjectOptions[] = [
      { method: 'GET', url: `${ADMIN}/users/${user.id}` },
      { method: 'PATCH', url: `${ADMIN}/users/${user.id}`, payload: { active: false } },
      { method: 'GET', url: `${ADMIN}/users/${user.id}/memberships` },
      { method: 'GET', url: `${ADMIN}/organizations/${organization.id}` },
      { method: 'PATCH', url: `${ADMIN}/organizations/${organization.id}`, payload: { active: false } },
      { method: 'GET', url: `${ADMIN}/organizations/${organization.id}/memberships` },
      { method: 'PATCH', url: `${ADMIN}/memberships/mem_x`, payload: { active: false } },
      { method: 'GET', url: `${ADMIN}/clients/${client.clientId}` },
      { method: 'PATCH', url: `${ADMIN}/clients/${client.clientId}`, payload: { active: false } },
      { method: 'POST', url: `${ADMIN}/clients/${client.clientId}/rotate-secret` },
    ];
    for (const request of requests) {
      for (const headers of [{}, { authorization: 'Bearer not-the-operator-token' }]) {
        const response = await h.inject({ ...request, headers });
        expect(response.statusCode, `${request.method} ${request.url}`).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND_BODY);
      }
    }
    // Nothing changed.
    expect((await call('GET', `/users/${user.id}`)).body).toMatchObject({ active: true });
    expect((await call('GET', `/organizations/${organization.id}`)).body).toMatchObject({ active: true });
    expect((await call('GET', `/clients/${client.clientId}`)).body).toMatchObject({ active: true });
    expect(await auditOf('admin.client.secret_rotated')).not.toContainEqual(
      expect.objectContaining({ clientId: client.clientId }),
    );
  });
});

import {
  pageSchema,
  svcClientSchema,
  svcOrganizationMemberSchema,
  svcOrganizationSchema,
  svcSessionSchema,
  svcUserSchema,
} from '@svc/contract';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authorizeQuery, pkcePair } from '../test-support/authorize-params.js';
import { describeEachDatabase } from '../test-support/databases.js';
import {
  createDirectHarness,
  DIRECT_PASSWORD,
  unique,
  type DirectHarness,
} from '../test-support/direct-test-app.js';
import { InjectBrowser } from '../test-support/inject-browser.js';
import { form, REDIRECT_URI } from '../test-support/oauth-http.js';
import { operatorApi } from '../test-support/operator-api.js';

const ADMIN = '/svc/admin/auth/api';
const users = pageSchema(svcUserSchema.strict());
const organizations = pageSchema(svcOrganizationSchema.strict());
const clients = pageSchema(svcClientSchema.strict());
const members = pageSchema(svcOrganizationMemberSchema.strict());
const sessions = pageSchema(svcSessionSchema.strict());

/** The operator lists' filters (docs/reference/operator-api.md "Lists"), on both databases. */
describeEachDatabase('operator console: searches and joined lists', (kind) => {
  let h: DirectHarness;
  beforeAll(async () => {
    h = await createDirectHarness(kind);
  });
  afterAll(() => h.close());
  const api = operatorApi(ADMIN, () => h.t);
  const list = async <T>(schema: { parse(value: unknown): T }, path: string): Promise<T> => {
    const response = await api('GET', path);
    expect(response.status, `${path}: ${response.text}`).toBe(200);
    return schema.parse(response.body);
  };
  const idsOf = async (path: string) => (await list(users, path)).data.map((user) => user.id);
  const refusal = async (path: string) => {
    const response = await api('GET', path);
    expect(response.status, path).toBe(400);
    return (response.body.details as { path: string }[]).map((detail) => detail.path);
  };
  const user = (displayName: string, email: string) =>
    h.t.svc.admin.createUserAsync({ displayName, email, password: DIRECT_PASSWORD });

  it('GET /users: query (email prefix by key, name contains, id), organizationId, active, email, paged', async () => {
    const tag = unique('find').toLowerCase();
    const ann = await user(`Ann Zebra ${tag}`, `Ann.${tag}@Example.com`);
    h.t.clock.advance(1000);
    const bob = await user(`Bob 100%_${tag}`, `bob.${tag}@example.com`);
    h.t.clock.advance(1000);
    const carl = await user(`Carl ${tag}`, `carl.${tag}@example.com`);
    await api('PATCH', `/users/${carl.id}`, { active: false });
    const q = (text: string) => `/users?query=${encodeURIComponent(text)}`;

    expect(await idsOf(q(`ANN.${tag.toUpperCase()}`))).toEqual([ann.id]);
    expect(await idsOf(q(`zebra ${tag.toUpperCase()}`))).toEqual([ann.id]);
    expect(await idsOf(q(bob.id))).toEqual([bob.id]);
    // LIKE's wildcards are matched as themselves: `_` is not "any character" (the others have ' tag').
    expect(await idsOf(q(`_${tag}`))).toEqual([bob.id]);
    expect(await idsOf(q(`100%_${tag}`))).toEqual([bob.id]);
    // The email is matched from its start only.
    expect(await idsOf(q(`${tag}@example`))).toEqual([]);
    expect(await idsOf(q(tag))).toEqual([carl.id, bob.id, ann.id]);
    expect(await idsOf(`${q(tag)}&active=false`)).toEqual([carl.id]);
    expect(await idsOf(`${q(tag)}&active=true`)).toEqual([bob.id, ann.id]);

    // Keyset paging keeps the filter's rows in order.
    const seen: string[] = [];
    let path = `${q(tag)}&limit=1`;
    for (let page = 0; page < 5; page += 1) {
      const { data, nextCursor } = await list(users, path);
      seen.push(...data.map((found) => found.id));
      if (nextCursor === null) break;
      path = `${q(tag)}&limit=1&cursor=${encodeURIComponent(nextCursor)}`;
    }
    expect(seen).toEqual([carl.id, bob.id, ann.id]);

    // Active members of the organization only.
    const organization = await h.given.organization();
    await h.given.membership(organization.id, ann.id);
    await h.given.membership(organization.id, bob.id);
    const bobs = await list(members, `/organizations/${organization.id}/memberships?query=bob.`);
    await api('PATCH', `/memberships/${bobs.data[0]?.id ?? ''}`, { active: false });
    expect(await idsOf(`/users?organizationId=${organization.id}`)).toEqual([ann.id]);
    expect(await idsOf(`/users?organizationId=${organization.id}&query=carl`)).toEqual([]);

    expect(await idsOf(`/users?email=${encodeURIComponent(` ann.${tag}@EXAMPLE.COM `)}`)).toEqual([ann.id]);
    expect(await idsOf(`/users?email=nobody.${tag}@example.com`)).toEqual([]);
    // An empty search box filters nothing.
    expect((await list(users, `/users?query=&limit=1`)).data).toHaveLength(1);

    expect(await refusal('/users?active=yes')).toEqual(['active']);
    expect(await refusal('/users?email=not-an-address')).toEqual(['email']);
    expect(await refusal(`/users?query=${'x'.repeat(201)}`)).toEqual(['query']);
    expect(await refusal('/users?query=a&query=b')).toEqual(['query']);
    expect(await refusal('/users?organizationId=%00')).toEqual(['organizationId']);
  });

  it('GET /organizations and GET /clients: query and active, with the registration filter', async () => {
    const tag = unique('dir').toLowerCase();
    const acme = await h.t.svc.admin.createOrganizationAsync({ name: `Acme ${tag}`, slug: `acme-${tag}` });
    const globex = await h.t.svc.admin.createOrganizationAsync({ name: `Globex ${tag}` });
    await api('PATCH', `/organizations/${globex.id}`, { active: false });
    const orgIds = async (path: string) => (await list(organizations, path)).data.map((org) => org.id);
    expect(await orgIds(`/organizations?query=${encodeURIComponent(`CME ${tag.toUpperCase()}`)}`)).toEqual([
      acme.id,
    ]);
    expect(await orgIds(`/organizations?query=ACME-${tag}`)).toEqual([acme.id]);
    expect(await orgIds(`/organizations?query=${globex.id}`)).toEqual([globex.id]);
    expect(await orgIds(`/organizations?query=${tag}&active=false`)).toEqual([globex.id]);
    expect(await orgIds(`/organizations?query=${tag}&active=true`)).toEqual([acme.id]);
    expect(await refusal('/organizations?active=0')).toEqual(['active']);

    const portal = await h.given.client({ clientId: `${tag}-portal`, name: `Portal ${tag}` });
    h.t.clock.advance(1000);
    const billing = await h.given.client({ clientId: `${tag}-billing`, name: 'Billing' });
    await api('PATCH', `/clients/${billing.clientId}`, { active: false });
    const clientIds = async (path: string) => (await list(clients, path)).data.map((client) => client.id);
    expect(await clientIds(`/clients?query=${encodeURIComponent(`portal ${tag}`)}`)).toEqual([
      portal.record.id,
    ]);
    expect(await clientIds(`/clients?query=${tag.toUpperCase()}-BIL`)).toEqual([billing.record.id]);
    expect(await clientIds(`/clients?query=${billing.record.id}`)).toEqual([billing.record.id]);
    expect(await clientIds(`/clients?query=${tag}&active=false`)).toEqual([billing.record.id]);
    expect(await clientIds(`/clients?query=${tag}&registration=operator`)).toEqual([
      billing.record.id,
      portal.record.id,
    ]);
    expect(await clientIds(`/clients?query=${tag}&registration=dynamic`)).toEqual([]);
    expect(await refusal('/clients?active=on&registration=other')).toEqual(['registration', 'active']);
  });

  it('lists an organization’s members with their users (query, active), a user’s memberships with organizations', async () => {
    const tag = unique('mem').toLowerCase();
    const organization = await h.given.organization();
    const ann = await user(`Ann ${tag}`, `ann.${tag}@example.com`);
    const bob = await user(`Bob ${tag}`, `bob.${tag}@example.com`);
    await h.given.membership(organization.id, ann.id, 'owner');
    h.t.clock.advance(1000);
    await h.given.membership(organization.id, bob.id);
    const base = `/organizations/${organization.id}/memberships`;
    const all = await list(members, base);
    expect(all.data.map((member) => member.user)).toEqual([
      { id: bob.id, email: bob.email, displayName: bob.displayName },
      { id: ann.id, email: ann.email, displayName: ann.displayName },
    ]);
    await api('PATCH', `/memberships/${all.data[0]?.id ?? ''}`, { active: false });
    const userIds = async (path: string) => (await list(members, path)).data.map((member) => member.userId);
    expect(await userIds(`${base}?query=ANN.${tag}`)).toEqual([ann.id]);
    expect(await userIds(`${base}?query=${encodeURIComponent(`b ${tag}`)}`)).toEqual([bob.id]);
    expect(await userIds(`${base}?active=false`)).toEqual([bob.id]);
    expect(await userIds(`${base}?active=true&query=${ann.id}`)).toEqual([ann.id]);
    const first = await list(members, `${base}?limit=1&query=${tag}`);
    expect(first.data.map((member) => member.userId)).toEqual([bob.id]);
    const rest = await list(members, `${base}?limit=1&query=${tag}&cursor=${first.nextCursor ?? ''}`);
    expect(rest).toMatchObject({ data: [{ userId: ann.id, role: 'owner' }], nextCursor: null });
    expect(await refusal(`${base}?active=maybe`)).toEqual(['active']);

    const annMemberships = await api('GET', `/users/${ann.id}/memberships`);
    expect(annMemberships.body.data).toEqual([
      expect.objectContaining({
        organizationId: organization.id,
        organization: { id: organization.id, name: organization.name, slug: organization.slug },
      }),
    ]);
  });

  it('GET /sessions: the user, client and organization joined, by email, with the device and address of the sign-in', async () => {
    const client = await h.given.client({ name: 'Console App' });
    const signedIn = await user('Sam Session', `${unique('sam')}@example.com`);
    const login = (headers: Record<string, string>, remoteAddress: string, organizationId?: string) =>
      h.inject({
        method: 'POST',
        url: `${h.authBase}/password/login`,
        headers: { 'content-type': 'application/json', ...headers },
        remoteAddress,
        payload: JSON.stringify({
          email: signedIn.email,
          password: DIRECT_PASSWORD,
          clientId: client.clientId,
          organizationId,
        }),
      });
    // A user-scoped session, then (a member now) one in the organization.
    expect((await login({ 'user-agent': 'DirectAgent/1.0' }, '203.0.113.5')).statusCode).toBe(200);
    const organization = await h.given.organization();
    await h.given.membership(organization.id, signedIn.id);
    h.t.clock.advance(1000);
    const long = { 'user-agent': `Long/${'x'.repeat(600)}` };
    expect((await login(long, '203.0.113.6', organization.id)).statusCode).toBe(200);

    const byEmail = await list(
      sessions,
      `/sessions?email=${encodeURIComponent(signedIn.email.toUpperCase())}`,
    );
    expect(byEmail.data.map((session) => [session.userAgent?.length, session.ipAddress])).toEqual([
      [512, '203.0.113.6'],
      ['DirectAgent/1.0'.length, '203.0.113.5'],
    ]);
    expect(byEmail.data[1]).toMatchObject({
      userId: signedIn.id,
      user: { id: signedIn.id, email: signedIn.email, displayName: 'Sam Session' },
      client: { clientId: client.clientId, name: 'Console App' },
      organizationId: null,
      organization: null,
      userAgent: 'DirectAgent/1.0',
    });
    expect(byEmail.data[0]).toMatchObject({
      organizationId: organization.id,
      organization: { id: organization.id, name: organization.name, slug: organization.slug },
    });
    expect(await list(sessions, `/sessions?email=nobody-${unique('x')}@example.com`)).toEqual({
      data: [],
      nextCursor: null,
    });
    const other = await h.given.user();
    expect((await list(sessions, `/sessions?email=${signedIn.email}&userId=${other.id}`)).data).toEqual([]);
    expect(await refusal('/sessions?email=nope')).toEqual(['email']);

    // The authorization-code flow: the browser at the sign-in pages, not the backend that redeems.
    const browser = new InjectBrowser({
      authBase: h.authBase,
      inject: (options: InjectOptions) =>
        h.inject({
          ...options,
          headers: { ...options.headers, 'user-agent': 'BrowserAgent/2.0' },
          remoteAddress: '198.51.100.7',
        }),
    });
    const pkce = pkcePair();
    const done = await browser.signIn(
      await browser.authorize(authorizeQuery(client.clientId, {}, pkce.challenge)),
      signedIn.email,
      DIRECT_PASSWORD,
    );
    const code = InjectBrowser.location(done).searchParams.get('code') ?? '';
    const redeemed = await h.inject({
      method: 'POST',
      url: `${h.authBase}/token`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'BackendAgent/3.0' },
      remoteAddress: '192.0.2.50',
      payload: form({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
        client_id: client.clientId,
        code_verifier: pkce.verifier,
      }),
    });
    expect(redeemed.statusCode, redeemed.body).toBe(200);
    const [newest] = (await list(sessions, `/sessions?userId=${signedIn.id}&limit=1`)).data;
    expect(newest).toMatchObject({ userAgent: 'BrowserAgent/2.0', ipAddress: '198.51.100.7' });
  });
});

import { svcLinkedIdentitySchema, type SvcLinkedIdentity } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDirectHarness, type DirectHarness } from '../test-support/direct-test-app.js';

const ADMIN = '/svc/admin/auth/api';

/**
 * The provider identities linked to an account, as the account sees them (POST /account/identities and
 * /account/identities/remove, with a first-party session) and as operators do (GET and DELETE
 * /users/{userId}/identities).
 */
describe('linked identities', () => {
  let h: DirectHarness;
  beforeAll(async () => {
    h = await createDirectHarness();
  });
  afterAll(() => h.close());

  const db = () => h.t.svc.database.db;
  let connections = 0;
  /** A connection with one identity linked to `userId` (as a sign-in through it links one). */
  const linked = async (userId: string): Promise<string> => {
    connections += 1;
    const connection = await h.t.svc.admin.createOidcConnectionAsync({
      providerType: 'GitHub',
      displayName: `GitHub ${connections}`,
      clientId: 'gh-client',
      clientSecret: 'gh-secret',
      allowedCallbackUris: ['https://id.example.com/svc/auth/oidc/callback'],
    });
    const id = `oid_test_${connections}`;
    await db()
      .insertInto('oidcIdentities')
      .values({
        id,
        connectionId: connection.id,
        subject: String(1000 + connections),
        userId,
        email: 'octo@example.com',
        emailVerified: 1,
        createdAt: h.t.clock.now(),
        lastUsedAt: h.t.clock.now(),
      })
      .execute();
    return id;
  };
  const signedIn = async () => {
    const web = await h.given.client();
    const user = await h.given.user();
    const tokens = (await h.login(user.email, web.clientId)).tokens;
    if (tokens === null) throw new Error('no tokens');
    return { refreshToken: tokens.refreshToken, userId: user.id };
  };
  const operator = (method: 'GET' | 'DELETE', url: string) =>
    h.inject({ method, url: `${ADMIN}${url}`, headers: h.t.operator });

  it('lists and removes the identities of the session’s own account only', async () => {
    const ann = await signedIn();
    const bob = await signedIn();
    const annsLink = await linked(ann.userId);
    const bobsLink = await linked(bob.userId);

    const listed = await h.post('/account/identities', { refreshToken: ann.refreshToken });
    expect(listed.statusCode, listed.body).toBe(200);
    const body = listed.json<{ data: unknown[] }>();
    expect(body.data.map((entry) => svcLinkedIdentitySchema.parse(entry))).toMatchObject([
      { id: annsLink, email: 'octo@example.com', emailVerified: true },
    ]);

    const remove = (identityId: string) =>
      h.post('/account/identities/remove', { refreshToken: ann.refreshToken, identityId });
    expect((await remove(bobsLink)).statusCode).toBe(404);
    const removed = await remove(annsLink);
    expect(removed.statusCode, removed.body).toBe(204);
    expect((await h.post('/account/identities', { refreshToken: ann.refreshToken })).json()).toEqual({
      data: [],
    });
    expect((await remove(annsLink)).statusCode).toBe(404);
    expect((await h.post('/account/identities', { refreshToken: bob.refreshToken })).json()).toMatchObject({
      data: [{ id: bobsLink }],
    });
    const events = await h.events('oidc.identity.unlinked');
    expect(events.map((event) => event.actorId)).toContain(ann.userId);
  });

  it('answers 401 without a first-party session and 400 for a malformed body', async () => {
    for (const body of [{}, { refreshToken: 'never-issued' }]) {
      const list = await h.post('/account/identities', body);
      expect(list.statusCode).toBe(401);
      const remove = await h.post('/account/identities/remove', { ...body, identityId: 'oid_x' });
      expect(remove.statusCode).toBe(401);
    }
    const ann = await signedIn();
    for (const body of [
      { refreshToken: ann.refreshToken },
      { refreshToken: ann.refreshToken, identityId: 7 },
    ]) {
      const response = await h.post('/account/identities/remove', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('lets operators list and remove a user’s identities, audited with the operator', async () => {
    const ann = await signedIn();
    const link = await linked(ann.userId);
    const listed = await operator('GET', `/users/${ann.userId}/identities`);
    expect(listed.statusCode, listed.body).toBe(200);
    const [identity] = listed
      .json<{ data: SvcLinkedIdentity[] }>()
      .data.map((entry) => svcLinkedIdentitySchema.parse(entry));
    // The connection by its name and provider type, read in the same query.
    expect(identity).toMatchObject({
      id: link,
      connection: {
        id: identity?.connectionId,
        displayName: `GitHub ${connections}`,
        providerType: 'GitHub',
      },
    });
    expect((await operator('GET', '/users/usr_unknown/identities')).statusCode).toBe(404);
    expect((await operator('DELETE', `/users/${ann.userId}/identities/oid_unknown`)).statusCode).toBe(404);
    // Without the operator token the routes do not exist, and nothing is removed.
    const hiddenList = await h.inject({ method: 'GET', url: `${ADMIN}/users/${ann.userId}/identities` });
    expect(hiddenList.statusCode).toBe(404);
    const hiddenDelete = await h.inject({
      method: 'DELETE',
      url: `${ADMIN}/users/${ann.userId}/identities/${link}`,
    });
    expect(hiddenDelete.statusCode).toBe(404);
    expect((await operator('GET', `/users/${ann.userId}/identities`)).json()).toMatchObject({
      data: [{ id: link }],
    });
    const removed = await operator('DELETE', `/users/${ann.userId}/identities/${link}`);
    expect(removed.statusCode, removed.body).toBe(204);
    expect((await operator('GET', `/users/${ann.userId}/identities`)).json()).toEqual({ data: [] });
    const event = (await h.events('oidc.identity.unlinked')).find((e) => e.userId === ann.userId);
    expect(event).toMatchObject({ actorType: 'operator' });
  });

  it('refuses to remove the last way an account without password or address signs in', async () => {
    const created = await h.t.svc.admin.createUserAsync({
      displayName: 'Octo',
      email: 'octo-only@example.com',
      password: null,
    });
    await db()
      .updateTable('users')
      .set({ email: null, emailKey: null })
      .where('id', '=', created.id)
      .execute();
    const link = await linked(created.id);
    const refused = await operator('DELETE', `/users/${created.id}/identities/${link}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ message: expect.stringContaining('only way') });
  });
});

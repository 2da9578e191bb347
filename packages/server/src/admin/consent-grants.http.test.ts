import { svcConsentGrantSchema } from '@svc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SvcNotFoundError, SvcValidationError } from '../kernel/errors.js';
import { describeAboveStorage } from '../test-support/databases.js';
import { createTestSvc, type TestSvc } from '../test-support/test-svc.js';

const ADMIN = '/svc/admin/auth/api';

/**
 * The operator's view of users' consent grants (docs/reference/tokens-and-sessions.md, consent grants: `GET
 * /users/{userId}/grants` → `data`; `POST /users/{userId}/grants/{grantId}/revoke` → id and revokedAt,
 * "400 for unknown or already revoked"), through the real app behind the operator guard.
 */
describeAboveStorage('operator consent-grant routes', (kind) => {
  let t: TestSvc;
  beforeAll(async () => {
    t = await createTestSvc(kind);
  });
  afterAll(() => t.close());

  const get = (path: string, authorized = true) =>
    t.svc.app.inject({ method: 'GET', url: `${ADMIN}${path}`, headers: authorized ? t.operator : {} });
  const post = (path: string, authorized = true) =>
    t.svc.app.inject({ method: 'POST', url: `${ADMIN}${path}`, headers: authorized ? t.operator : {} });

  it('lists a user’s active grants and revokes one, audited with the operator as the actor', async () => {
    const ann = await t.svc.admin.createUserAsync({
      displayName: 'Ann',
      email: 'ann@example.com',
      password: null,
    });
    const bob = await t.svc.admin.createUserAsync({
      displayName: 'Bob',
      email: 'bob@example.com',
      password: null,
    });
    const client = (name: string) =>
      t.svc.admin.createClientAsync({
        clientId: name.toLowerCase().replace(/ /g, '-'),
        name,
        audience: 'https://api.example.com',
        redirectUris: ['https://app.example.com/callback'],
      });
    const [photos, notes] = [await client('Photo App'), await client('Notes App')];
    const photosGrant = await t.svc.authEngine.consents.record(ann.id, photos.clientId, ['openid', 'photos']);
    t.clock.advance(1_000);
    const notesGrant = await t.svc.authEngine.consents.record(ann.id, notes.clientId, ['notes']);
    const bobsGrant = await t.svc.authEngine.consents.record(bob.id, photos.clientId, ['photos']);

    const listed = await get(`/users/${ann.id}/grants`);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.headers['cache-control']).toBe('no-store');
    const { data } = listed.json<{ data: unknown[] }>();
    expect(svcConsentGrantSchema.array().parse(data)).toHaveLength(2);
    expect(data).toEqual(
      expect.arrayContaining([
        {
          id: photosGrant.id,
          clientId: photos.clientId,
          clientName: 'Photo App',
          scopes: ['openid', 'photos'],
          scopeDetails: [
            { scope: 'openid', displayName: 'Confirm who you are when you sign in', description: null },
            { scope: 'photos', displayName: null, description: null },
          ],
          grantedAt: new Date(photosGrant.grantedAt).toISOString(),
          updatedAt: new Date(photosGrant.updatedAt).toISOString(),
        },
        expect.objectContaining({ id: notesGrant.id, clientName: 'Notes App', scopes: ['notes'] }),
      ]),
    );

    const revoked = await post(`/users/${ann.id}/grants/${photosGrant.id}/revoke`);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json()).toEqual({ id: photosGrant.id, revokedAt: new Date(t.clock.now()).toISOString() });
    expect((await get(`/users/${ann.id}/grants`)).json()).toEqual({
      data: [expect.objectContaining({ id: notesGrant.id })],
    });
    const events = await t.svc.database.db
      .selectFrom('auditEvents')
      .selectAll()
      .where('kind', '=', 'oauth.consent.revoked')
      .execute();
    expect(events).toEqual([
      expect.objectContaining({ actorType: 'operator', userId: ann.id, ipAddress: '127.0.0.1' }),
    ]);
    expect(JSON.parse(events[0]?.dataJson ?? '{}')).toEqual({ grantId: photosGrant.id });

    // Already revoked, unknown, or another user's grant: 400, and nothing changes.
    for (const path of [
      `/users/${ann.id}/grants/${photosGrant.id}/revoke`,
      `/users/${ann.id}/grants/cgr_unknown/revoke`,
      `/users/${ann.id}/grants/${bobsGrant.id}/revoke`,
      `/users/usr_unknown/grants/${bobsGrant.id}/revoke`,
    ]) {
      const response = await post(path);
      expect(response.statusCode, path).toBe(400);
      expect(response.json()).toEqual({
        error: 'invalid_request',
        message: 'The grant does not exist or is already revoked.',
      });
    }
    expect((await get(`/users/${bob.id}/grants`)).json()).toMatchObject({ data: [{ id: bobsGrant.id }] });

    // The in-process facade answers the same.
    expect(await t.svc.admin.listUserGrantsAsync(bob.id)).toEqual(
      (await get(`/users/${bob.id}/grants`)).json(),
    );
    await expect(t.svc.admin.revokeUserGrantAsync(bob.id, photosGrant.id)).rejects.toMatchObject({
      status: 400,
    });
  });

  it('answers an unknown user with 404 and malformed ids with 400', async () => {
    const unknown = await get('/users/usr_unknown/grants');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'not_found', message: "User 'usr_unknown' was not found." });
    await expect(t.svc.admin.listUserGrantsAsync('usr_unknown')).rejects.toBeInstanceOf(SvcNotFoundError);

    for (const id of ['%00', 'a%0Ab', '%20%20']) {
      const list = await get(`/users/${id}/grants`);
      expect(list.statusCode, id).toBe(400);
      expect(list.json()).toMatchObject({
        error: 'invalid_request',
        message: expect.stringContaining('userId'),
      });
      const revoke = await post(`/users/usr_1/grants/${id}/revoke`);
      expect(revoke.statusCode, id).toBe(400);
      expect(revoke.json()).toMatchObject({ message: expect.stringContaining('grantId') });
    }
    // Fastify refuses path parameters over 100 characters itself (414), still a 4xx.
    const long = await get(`/users/${'x'.repeat(201)}/grants`);
    expect(long.statusCode).toBe(414);
    await expect(t.svc.admin.revokeUserGrantAsync('', 'cgr_1')).rejects.toBeInstanceOf(SvcValidationError);
    await expect(t.svc.admin.listUserGrantsAsync('x'.repeat(201))).rejects.toBeInstanceOf(SvcValidationError);
  });

  it('hides both routes from callers without the operator token', async () => {
    for (const response of [
      await get('/users/usr_1/grants', false),
      await post('/users/usr_1/grants/cgr_1/revoke', false),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'not_found', message: 'Not found.' });
    }
  });
});

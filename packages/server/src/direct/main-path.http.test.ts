import {
  svcConsentGrantRevokeResultSchema,
  svcConsentGrantSchema,
  svcLoginResultSchema,
  svcTokenResponseSchema,
} from '@svc/contract';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../test-support/databases.js';
import { createDirectHarness, DIRECT_PASSWORD, type DirectHarness } from '../test-support/direct-test-app.js';

/**
 * The main path of a first-party app through the direct JSON helpers, on SQLite and on PostgreSQL:
 * sign up, sign in with organization selection, refresh with an organization switch, manage consent
 * grants, log out. Every body is parsed with the contract schemas.
 */
describeEachDatabase('direct JSON helpers: the main path', (kind) => {
  let h: DirectHarness;
  beforeAll(async () => {
    h = await createDirectHarness(kind);
  });
  afterAll(() => h.close());

  it('signs a new user up into a new organization', async () => {
    const web = await h.given.client();
    const response = await h.post('/signup', {
      displayName: 'Grace Hopper',
      email: 'grace@example.com',
      password: DIRECT_PASSWORD,
      organizationName: 'Navy Labs',
      clientId: web.clientId,
    });
    expect(response.statusCode, response.body).toBe(200);
    const result = svcLoginResultSchema.parse(response.json());
    const user = await h.t.svc.admin.listUsersAsync();
    const grace = user.data.find((u) => u.email === 'grace@example.com');
    const organizations = await h.t.svc.admin.getUserOrganizationsAsync(grace?.id ?? '');
    expect(organizations).toEqual([expect.objectContaining({ name: 'Navy Labs', role: 'owner' })]);
    expect(result).toMatchObject({
      requiresOrganizationSelection: false,
      tokens: { clientId: web.clientId, organizationId: organizations[0]?.id },
    });
  });

  it('signs in, selects an organization, refreshes into another one, manages grants and logs out', async () => {
    const web = await h.given.client({ allowedScopes: ['openid', 'profile', 'api:read'] });
    const photos = await h.given.client({ isFirstParty: false, name: 'Photo App' });
    const ann = await h.given.user('ann@example.com');
    const [alpha, beta] = [await h.given.organization('Alpha'), await h.given.organization('Beta')];
    await h.given.membership(alpha.id, ann.id, 'admin');
    await h.given.membership(beta.id, ann.id);

    // Two organizations: the login result asks for a choice and carries no tokens.
    const login = await h.post('/password/login', {
      email: 'ann@example.com',
      password: DIRECT_PASSWORD,
      clientId: web.clientId,
    });
    expect(login.statusCode, login.body).toBe(200);
    expect(login.headers['cache-control']).toBe('no-store');
    const pending = svcLoginResultSchema.parse(login.json());
    expect(pending).toEqual({
      requiresOrganizationSelection: true,
      pendingAuthToken: expect.any(String),
      organizations: [
        { id: alpha.id, slug: alpha.slug, name: 'Alpha', role: 'admin' },
        { id: beta.id, slug: beta.slug, name: 'Beta', role: 'member' },
      ],
      tokens: null,
      requiresMfa: false,
      mfaToken: null,
      requiresMfaEnrollment: false,
      mfaMethods: null,
    });

    const selected = await h.post('/select-organization', {
      pendingAuthToken: pending.pendingAuthToken,
      organizationId: alpha.id,
    });
    expect(selected.statusCode, selected.body).toBe(200);
    const complete = svcLoginResultSchema.parse(selected.json());
    expect(complete).toMatchObject({
      requiresOrganizationSelection: false,
      pendingAuthToken: null,
      organizations: [],
      tokens: { clientId: web.clientId, organizationId: alpha.id },
    });
    const first = complete.tokens;
    if (first === null) throw new Error('no tokens');
    // docs/reference/sign-in.md "Direct JSON helpers": the session is granted the client's whole allow-list.
    expect(decodeJwt(first.accessToken)).toMatchObject({
      sub: ann.id,
      org_id: alpha.id,
      client_id: web.clientId,
      scope: 'openid profile api:read',
    });

    const refreshed = await h.post('/token/refresh', {
      refreshToken: first.refreshToken,
      organizationId: beta.id,
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    expect(refreshed.headers['cache-control']).toBe('no-store');
    const second = svcTokenResponseSchema.parse(refreshed.json());
    expect(second).toMatchObject({ sessionId: first.sessionId, organizationId: beta.id });
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(decodeJwt(second.accessToken)).toMatchObject({
      org_id: beta.id,
      scope: 'openid profile api:read',
    });
    // The old token was consumed by the rotation.
    const replay = await h.post('/token/refresh', { refreshToken: first.refreshToken });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ error: 'invalid_grant', message: expect.any(String) });

    const grant = await h.t.svc.authEngine.consents.record(ann.id, photos.clientId, ['openid', 'photos']);
    const listed = await h.post('/account/grants', { refreshToken: second.refreshToken });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(svcConsentGrantSchema.array().parse(listed.json<{ data: unknown }>().data)).toHaveLength(1);
    expect(listed.json()).toMatchObject({
      data: [
        { id: grant.id, clientId: photos.clientId, clientName: 'Photo App', scopes: ['openid', 'photos'] },
      ],
    });
    const revoked = await h.post('/account/grants/revoke', {
      refreshToken: second.refreshToken,
      grantId: grant.id,
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(svcConsentGrantRevokeResultSchema.parse(revoked.json())).toEqual({
      id: grant.id,
      revokedAt: new Date(h.t.clock.now()).toISOString(),
    });
    expect((await h.post('/account/grants', { refreshToken: second.refreshToken })).json()).toEqual({
      data: [],
    });

    const logout = await h.post('/logout', { refreshToken: second.refreshToken });
    expect(logout.statusCode).toBe(204);
    expect(logout.body).toBe('');
    const afterLogout = await h.post('/token/refresh', { refreshToken: second.refreshToken });
    expect(afterLogout.statusCode).toBe(400);
    expect(afterLogout.json()).toMatchObject({ error: 'invalid_grant' });
  });
});

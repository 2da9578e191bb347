import {
  svcApplicationAccessCheckSchema,
  svcApplicationAccessSchema,
  svcApplicationAssignmentSchema,
} from '@svc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authorizeQuery, pkcePair } from '../test-support/authorize-params.js';
import { describeAboveStorage } from '../test-support/databases.js';
import { createDirectHarness, DIRECT_PASSWORD, type DirectHarness } from '../test-support/direct-test-app.js';
import { fgaApi } from '../test-support/fga-api.js';
import { InjectBrowser } from '../test-support/inject-browser.js';
import { form } from '../test-support/oauth-http.js';
import { probeSession, type HeldTokens } from '../test-support/session-probe.js';

const ADMIN = '/svc/admin/auth/api';
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

describeAboveStorage('application access', (kind) => {
  let h: DirectHarness;
  beforeAll(async () => {
    h = await createDirectHarness(kind);
  });
  afterAll(() => h.close());

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    h.inject({
      method,
      url: `${ADMIN}${url}`,
      headers: h.t.operator,
      ...(payload === undefined ? {} : { payload }),
    });
  const setMode = async (applicationId: string, mode: string) => {
    const response = await call('POST', `/applications/${applicationId}/access-mode`, { mode });
    expect(response.statusCode, response.body).toBe(200);
  };
  const assign = async (applicationId: string, body: object) => {
    const response = await call('POST', `/applications/${applicationId}/assignments`, body);
    expect(response.statusCode, response.body).toBe(201);
    return svcApplicationAssignmentSchema.parse(response.json());
  };
  const check = async (applicationId: string, query: string) => {
    const response = await call('GET', `/applications/${applicationId}/access/check?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return svcApplicationAccessCheckSchema.parse(response.json());
  };
  const passwordLogin = (email: string, clientId: string, organizationId?: string) =>
    h.post('/password/login', {
      email,
      password: DIRECT_PASSWORD,
      clientId,
      ...(organizationId === undefined ? {} : { organizationId }),
    });
  const tokensOf = async (email: string, clientId: string, organizationId?: string): Promise<HeldTokens> => {
    const { tokens } = await h.login(email, clientId, organizationId);
    if (tokens === null) throw new Error('the login did not complete');
    return tokens;
  };

  it('a restricted client lets in the assigned user only; a deny wins; the refusal is generic and audited', async () => {
    const client = await h.given.client();
    const [ann, bob] = [await h.given.user(), await h.given.user()];
    await setMode(client.id, 'selected_users_groups_roles');

    const refused = await passwordLogin(ann.email, client.clientId);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json()).toEqual({
      error: 'access_denied',
      message: 'The user may not use this application.',
    });
    const [event] = await h.events('application.access.denied', client.clientId);
    expect(event).toMatchObject({ userId: ann.id, data: { flow: 'direct', decision: 'not_assigned' } });

    const allow = await assign(client.clientId, { principalType: 'user', principalId: ann.id });
    expect(allow).toMatchObject({ applicationId: client.id, clientId: client.clientId, effect: 'allow' });
    expect((await passwordLogin(ann.email, client.clientId)).statusCode).toBe(200);
    expect((await passwordLogin(bob.email, client.clientId)).statusCode).toBe(403);

    // A group deny beats the user's own allow.
    const fga = fgaApi(h.t.svc);
    const group = await fga.create('/groups', { name: 'Blocked' });
    expect((await fga.call('POST', `/groups/${group}/members/${ann.id}`)).status).toBe(201);
    const deny = await assign(client.id, { principalType: 'group', principalId: group, effect: 'deny' });
    expect(await check(client.id, `userId=${ann.id}`)).toMatchObject({
      allowed: false,
      decision: 'denied_by_assignment',
      reasons: [{ code: 'explicit_deny', assignmentId: deny.id }],
    });
    expect((await passwordLogin(ann.email, client.clientId)).statusCode).toBe(403);

    const listed = svcApplicationAccessSchema.parse(
      (await call('GET', `/applications/${client.clientId}/assignments`)).json(),
    );
    expect(listed).toMatchObject({ mode: 'selected_users_groups_roles' });
    // Newest first; both made in the same (fake) millisecond here, so compare them as a set.
    expect(listed.data.map((a) => a.id).sort()).toEqual([deny.id, allow.id].sort());
    expect((await call('DELETE', `/applications/${client.id}/assignments/${deny.id}`)).statusCode).toBe(204);
    expect((await call('DELETE', `/applications/${client.id}/assignments/${deny.id}`)).statusCode).toBe(404);
    expect((await passwordLogin(ann.email, client.clientId)).statusCode).toBe(200);
    expect((await h.events('application.assignment.deleted', client.clientId)).length).toBe(1);
  });

  it('disabling a client fails its sessions at the next refresh, and CreateSessionTokensForUser applies it', async () => {
    const client = await h.given.client();
    const user = await h.given.user();
    const tokens = await tokensOf(user.email, client.clientId);
    await setMode(client.clientId, 'disabled');
    expect((await probeSession(h.t.svc, tokens, client)).refresh).toBe('invalid_grant');
    await expect(
      h.t.svc.auth.createSessionTokensForUserAsync(user.id, client.clientId, null, 'pwd', null, null),
    ).rejects.toMatchObject({ error: 'access_denied', status: 403 });
    expect(await check(client.id, `userId=${user.id}`)).toMatchObject({ decision: 'application_disabled' });

    await setMode(client.clientId, 'all_organizations');
    const again = await h.t.svc.auth.createSessionTokensForUserAsync(
      user.id,
      client.clientId,
      null,
      'pwd',
      null,
      null,
    );
    expect(again.refreshToken).not.toBe('');
    const changes = await h.events('application.access_mode.changed', client.clientId);
    expect(changes.map((e) => e.data)).toHaveLength(2);
    expect(changes.map((e) => e.data)).toContainEqual({ from: 'all_organizations', to: 'disabled' });
    expect(changes.map((e) => e.data)).toContainEqual({ from: 'disabled', to: 'all_organizations' });
  });

  it('selected organizations: the choice offers only allowed ones; a role assignment names members of a role', async () => {
    const client = await h.given.client();
    const user = await h.given.user();
    const [allowed, other] = [await h.given.organization(), await h.given.organization()];
    await h.given.membership(allowed.id, user.id);
    await h.given.membership(other.id, user.id, 'admin');
    await setMode(client.id, 'selected_organizations');
    await assign(client.id, { principalType: 'organization', organizationId: allowed.id });

    // Two memberships, one allowed: the sign-in lands there without a choice.
    const result = await h.login(user.email, client.clientId);
    expect(result.tokens?.organizationId).toBe(allowed.id);
    expect((await passwordLogin(user.email, client.clientId, other.id)).statusCode).toBe(403);
    expect(await check(client.id, `userId=${user.id}&organizationId=${other.id}`)).toMatchObject({
      allowed: false,
      decision: 'not_assigned',
    });

    const byRole = await h.given.client();
    await setMode(byRole.id, 'selected_users_groups_roles');
    await assign(byRole.id, { principalType: 'role', organizationId: other.id, roleKey: 'Admin' });
    expect((await passwordLogin(user.email, byRole.clientId, other.id)).statusCode).toBe(200);
    expect((await passwordLogin(user.email, byRole.clientId, allowed.id)).statusCode).toBe(403);

    const orgApps = await call('GET', `/organizations/${other.id}/applications?limit=200`);
    const forOther = orgApps.json<{ data: { clientId: string; members: string }[] }>().data;
    expect(forOther.find((a) => a.clientId === byRole.clientId)?.members).toBe('some');
    expect(forOther.some((a) => a.clientId === client.clientId)).toBe(false);
    const userApps = await call('GET', `/users/${user.id}/applications?limit=200`);
    const mine = userApps.json<{ data: { clientId: string; organizationIds: string[] }[] }>().data;
    expect(mine.find((a) => a.clientId === client.clientId)?.organizationIds).toEqual([allowed.id]);
    expect(mine.find((a) => a.clientId === byRole.clientId)?.organizationIds).toEqual([other.id]);
  });

  it('a hosted sign-in the access rules refuse goes back to the client with access_denied', async () => {
    const client = await h.given.client();
    const user = await h.given.user();
    await setMode(client.clientId, 'internal_only');
    const browser = new InjectBrowser({ authBase: h.authBase, inject: (options) => h.inject(options) });
    const pkce = pkcePair();
    const redirect = await browser.signIn(
      await browser.authorize(authorizeQuery(client.clientId, {}, pkce.challenge)),
      user.email,
      DIRECT_PASSWORD,
    );
    const location = InjectBrowser.location(redirect);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('code')).toBeNull();
    const [event] = await h.events('application.access.denied', client.clientId);
    expect(event).toMatchObject({ data: { flow: 'authorize', decision: 'not_internal' } });

    // Signed in (the issuer session above), a silent request of a third-party client the rules refuse
    // hears access_denied, not consent_required.
    const thirdParty = await h.given.client({ isFirstParty: false });
    await setMode(thirdParty.clientId, 'internal_only');
    const silent = await browser.authorize(
      authorizeQuery(thirdParty.clientId, { prompt: 'none' }, pkcePair().challenge),
    );
    expect(InjectBrowser.location(silent).searchParams.get('error')).toBe('access_denied');
  });

  it('the device flow: an approval the rules refuse is a 403, and a poll after a change answers access_denied', async () => {
    const client = await h.given.client({ allowDeviceAuthorization: true });
    const user = await h.given.user();
    const start = async () => {
      const response = await h.inject({
        method: 'POST',
        url: `${h.authBase}/device_authorization`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: form({ client_id: client.clientId }),
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ device_code: string; user_code: string }>();
    };
    const approve = (userCode: string) =>
      h.t.svc.auth.approveDeviceAuthorizationAsync({
        userCode,
        userId: user.id,
        organizationId: null,
        amr: ['pwd'],
      });
    const poll = (deviceCode: string) =>
      h.inject({
        method: 'POST',
        url: `${h.authBase}/token`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: form({ grant_type: DEVICE_GRANT, client_id: client.clientId, device_code: deviceCode }),
      });

    await setMode(client.id, 'internal_only');
    const first = await start();
    await expect(approve(first.user_code)).rejects.toMatchObject({ error: 'access_denied', status: 403 });
    // The hosted approval page: the same refusal, as a page.
    const hosted = new InjectBrowser({ authBase: h.authBase, inject: (options) => h.inject(options) });
    const verification = await start();
    await hosted.signInToApproveDevice(
      {
        ...verification,
        verification_uri_complete: `${h.authBase}/device?user_code=${verification.user_code}`,
      },
      user.email,
      DIRECT_PASSWORD,
    );
    const refusedPage = await hosted.post('/device/approve');
    expect(refusedPage.statusCode).toBe(403);
    expect(refusedPage.body).toContain('The user may not use this application.');

    await setMode(client.id, 'all_organizations');
    const second = await start();
    expect(await approve(second.user_code)).toEqual({ status: 'approved' });
    await setMode(client.id, 'disabled');
    const refused = await poll(second.device_code);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'access_denied' });
    const events = await h.events('application.access.denied', client.clientId);
    expect(events.map((event) => event.data.flow).sort()).toEqual([
      'device_approval',
      'device_approval',
      'device_code',
    ]);
  });

  it('names each assignment’s principal, read in the list’s query; one whose record is gone has none', async () => {
    const client = await h.given.client();
    const user = await h.given.user();
    const organization = await h.given.organization();
    const fga = fgaApi(h.t.svc);
    const group = await fga.create('/groups', { name: 'Field crew' });
    const robot = await fga.create('/subjects', { type: 'service_account', name: 'Nightly export' });
    const agent = await fga.create('/subjects', { type: 'agent', name: 'Support bot' });
    const created = await assign(client.id, { principalType: 'user', principalId: user.id });
    expect(created.principal).toEqual({ name: user.displayName, email: user.email, slug: null });
    await assign(client.id, { principalType: 'organization', organizationId: organization.id });
    await assign(client.id, { principalType: 'role', organizationId: organization.id, roleKey: 'admin' });
    for (const [principalType, principalId] of [
      ['group', group],
      ['service_account', robot],
      ['agent', agent],
    ]) {
      await assign(client.id, { principalType, principalId, effect: 'deny' });
    }
    const named = async () => {
      const listed = await call('GET', `/applications/${client.id}/assignments`);
      expect(listed.statusCode, listed.body).toBe(200);
      const { data } = svcApplicationAccessSchema.parse(listed.json());
      return Object.fromEntries(data.map((entry) => [entry.principalType, entry.principal]));
    };
    const ofOrganization = { name: organization.name, email: null, slug: organization.slug };
    expect(await named()).toEqual({
      user: { name: user.displayName, email: user.email, slug: null },
      organization: ofOrganization,
      role: ofOrganization,
      group: { name: 'Field crew', email: null, slug: null },
      service_account: { name: 'Nightly export', email: null, slug: null },
      agent: { name: 'Support bot', email: null, slug: null },
    });
    expect((await fga.call('DELETE', `/subjects/${agent}`)).status).toBe(204);
    expect((await named()).agent).toBeNull();
  });

  it('refuses bad input with a 400 (never a 5xx), duplicates with a 409, unknown ids with a 404', async () => {
    const client = await h.given.client();
    const user = await h.given.user();
    const bad = [
      { principalType: 'user' },
      { principalType: 'role', organizationId: 'org_x' },
      { principalType: 'user', principalId: user.id, roleKey: 'admin' },
      { principalType: 'robot', principalId: user.id },
      { principalType: 'user', principalId: user.id, effect: 'maybe' },
      { principalType: 'user', principalId: 'usr_\u0000x' },
      { principalType: 'user', principalId: 'usr_missing' },
      { principalType: 'group', principalId: user.id },
    ];
    for (const body of bad) {
      const response = await call('POST', `/applications/${client.id}/assignments`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await call('POST', `/applications/${client.id}/access-mode`, { mode: 'open' })).statusCode).toBe(
      400,
    );
    await assign(client.id, { principalType: 'user', principalId: user.id });
    const twice = await call('POST', `/applications/${client.id}/assignments`, {
      principalType: 'user',
      principalId: user.id,
      effect: 'deny',
    });
    expect(twice.statusCode).toBe(409);
    expect((await call('GET', '/applications/app%00x/assignments')).statusCode).toBe(400);
    // Fastify refuses a path parameter over 100 characters before any route runs.
    expect((await call('GET', `/applications/${'a'.repeat(300)}/assignments`)).statusCode).toBe(414);
    expect((await call('GET', '/applications/nope/assignments')).statusCode).toBe(404);
    expect((await call('GET', `/applications/${client.id}/access/check`)).statusCode).toBe(400);
    expect((await call('GET', `/users/usr_%00/applications`)).statusCode).toBe(400);
    const anonymous = await h.inject({
      method: 'GET',
      url: `${ADMIN}/applications/${client.id}/assignments`,
    });
    expect(anonymous.statusCode).toBe(404);
  });
});

import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeAboveStorage } from '../test-support/databases.js';
import { createDirectHarness, DIRECT_PASSWORD, type DirectHarness } from '../test-support/direct-test-app.js';
import { endedSession, probeSession, type HeldTokens } from '../test-support/session-probe.js';

const ADMIN = '/svc/admin/auth/api';
const LIVE = { userinfo: 200, validated: true, refresh: 'ok' };

describeAboveStorage('deactivating organizations and memberships', (kind) => {
  let h: DirectHarness;
  beforeAll(async () => {
    h = await createDirectHarness(kind);
  });
  afterAll(() => h.close());

  const patch = async (path: string, active: boolean) => {
    const response = await h.inject({
      method: 'PATCH',
      url: `${ADMIN}${path}`,
      headers: h.t.operator,
      payload: { active },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ active });
  };
  const loginTo = (email: string, clientId: string, organizationId: string) =>
    h.post('/password/login', { email, password: DIRECT_PASSWORD, clientId, organizationId });
  const tokensIn = async (email: string, clientId: string, organizationId: string): Promise<HeldTokens> => {
    const { tokens } = await h.login(email, clientId, organizationId);
    if (tokens?.organizationId !== organizationId)
      throw new Error('the login did not land in the organization');
    return tokens;
  };
  /** The audit events of a kind about one organization, with their data parsed. */
  const eventsAbout = async (kind: string, organizationId: string) => {
    const rows = await h.t.svc.database.db
      .selectFrom('auditEvents')
      .selectAll()
      .where('kind', '=', kind)
      .where('organizationId', '=', organizationId)
      .execute();
    return rows.map((row) => ({ ...row, data: JSON.parse(row.dataJson) as unknown }));
  };
  /** Two organizations with the user in both, a colleague in the first, and a client. */
  const given = async () => {
    const client = await h.given.client();
    const [user, colleague] = [await h.given.user(), await h.given.user()];
    const [first, second] = [await h.given.organization(), await h.given.organization()];
    await h.given.membership(first.id, user.id);
    await h.given.membership(second.id, user.id);
    await h.given.membership(first.id, colleague.id);
    return { client, user, colleague, first, second };
  };

  it('an organization: its sessions end, nobody signs in to it, other organizations are untouched', async () => {
    const { client, user, colleague, first, second } = await given();
    const inFirst = await tokensIn(user.email, client.clientId, first.id);
    const colleagueInFirst = await tokensIn(colleague.email, client.clientId, first.id);
    const inSecond = await tokensIn(user.email, client.clientId, second.id);
    const before = await probeSession(h.t.svc, inFirst, client);
    expect(before).toMatchObject(LIVE);

    await patch(`/organizations/${first.id}`, false);
    expect(await probeSession(h.t.svc, before.next!, client)).toEqual(endedSession());
    expect(await probeSession(h.t.svc, colleagueInFirst, client)).toEqual(endedSession());
    expect(await probeSession(h.t.svc, inSecond, client)).toMatchObject(LIVE);

    const refused = await loginTo(user.email, client.clientId, first.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'access_denied' });
    // Without a choice the user lands in the one organization left, never in the deactivated one.
    const { tokens } = await h.login(user.email, client.clientId);
    expect(tokens?.organizationId).toBe(second.id);
    // The colleague has no active organization left: a user-scoped session.
    expect((await h.login(colleague.email, client.clientId)).tokens?.organizationId).toBeNull();

    expect(await eventsAbout('admin.organization.deactivated', first.id)).toEqual([
      expect.objectContaining({ actorType: 'operator', data: { sessionsRevoked: 2 } }),
    ]);

    await patch(`/organizations/${first.id}`, true);
    expect((await loginTo(user.email, client.clientId, first.id)).statusCode).toBe(200);
    expect(await probeSession(h.t.svc, colleagueInFirst, client)).toEqual(endedSession());
    expect(await eventsAbout('admin.organization.reactivated', first.id)).toHaveLength(1);
  });

  it('a membership: the user’s sessions in that organization end, the colleague’s and the other organization’s stay', async () => {
    const { client, user, colleague, first, second } = await given();
    const inFirst = await tokensIn(user.email, client.clientId, first.id);
    const colleagueInFirst = await tokensIn(colleague.email, client.clientId, first.id);
    const inSecond = await tokensIn(user.email, client.clientId, second.id);
    const memberships = await h.t.svc.admin.listUserMembershipsAsync(user.id);
    const membership = memberships.data.find((m) => m.organizationId === first.id);
    if (membership === undefined) throw new Error('no membership');

    await patch(`/memberships/${membership.id}`, false);
    expect(await probeSession(h.t.svc, inFirst, client)).toEqual(endedSession());
    expect(await probeSession(h.t.svc, colleagueInFirst, client)).toMatchObject(LIVE);
    expect(await probeSession(h.t.svc, inSecond, client)).toMatchObject(LIVE);
    const refused = await loginTo(user.email, client.clientId, first.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'access_denied' });
    // Nor can a refresh of the other organization's session switch into it.
    const switched = await h.post('/token/refresh', {
      refreshToken: (await h.login(user.email, client.clientId, second.id)).tokens?.refreshToken,
      organizationId: first.id,
    });
    expect(switched.statusCode).toBe(403);

    expect(await eventsAbout('admin.membership.deactivated', first.id)).toEqual([
      expect.objectContaining({
        actorType: 'operator',
        userId: user.id,
        data: { membershipId: membership.id, sessionsRevoked: 1 },
      }),
    ]);

    await patch(`/memberships/${membership.id}`, true);
    expect((await loginTo(user.email, client.clientId, first.id)).statusCode).toBe(200);
    expect(await probeSession(h.t.svc, inFirst, client)).toEqual(endedSession());
  });
});

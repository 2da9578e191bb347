import { svcCalendarAccessTokenSchema, svcCalendarConnectionSchema } from '@svc/contract';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { MINUTE_MS } from '../kernel/clock.js';
import {
  createCalendarHarness,
  PEER_ACCESS_TOKEN_SECONDS,
  returnedTo,
  startCalendarPeers,
  type CalendarHarness,
  type CalendarPeers,
  type CalendarSession,
} from '../test-support/calendar.js';
import { describeAboveStorage } from '../test-support/databases.js';
import { ACCESS_TOKEN_MARGIN_MS } from './calendar-access.js';

const ADMIN = '/svc/admin/calendar/api';

let peers: CalendarPeers;
beforeAll(async () => {
  peers = await startCalendarPeers();
});
afterAll(() => peers.close());

/** Access tokens for the host, refreshed on expiry; revocation by the user and by operators. */
describeAboveStorage('calendar tokens', (kind) => {
  let c: CalendarHarness;
  beforeAll(async () => {
    c = await createCalendarHarness(kind, peers);
  });
  afterAll(() => c.close());
  beforeEach(() => c.h.t.clock.set(Date.now()));

  const calendar = () => c.h.t.svc.calendar;
  const db = () => c.h.t.svc.database.db;
  const operator = (method: 'GET' | 'POST' | 'DELETE', url: string) =>
    c.h.inject({ method, url: `${ADMIN}${url}`, headers: c.h.t.operator });
  const connect = async (provider: 'google' | 'microsoft', session?: CalendarSession) => {
    const owner = session ?? (await c.signedIn());
    const answer = (await c.consent(owner, provider)).answer;
    return { session: owner, id: returnedTo(answer).searchParams.get('calendarConnectionId') ?? '' };
  };
  const worksAtGoogle = async (accessToken: string) =>
    (await fetch(peers.google.userInfoEndpoint, { headers: { authorization: `Bearer ${accessToken}` } }))
      .status;
  /** Past the point where a token is refreshed rather than handed out. */
  const pastExpiry = () => c.h.t.clock.advance(PEER_ACCESS_TOKEN_SECONDS * 1000 - ACCESS_TOKEN_MARGIN_MS);

  it('hands out the stored token while it lives, then refreshes it (Google keeps its refresh token)', async () => {
    const { id } = await connect('google');
    const first = svcCalendarAccessTokenSchema.parse(await calendar().getAccessTokenAsync(id));
    const tokenRequests = peers.google.server.count('POST /token');
    c.h.t.clock.advance(PEER_ACCESS_TOKEN_SECONDS * 1000 - ACCESS_TOKEN_MARGIN_MS - 1);
    expect((await calendar().getAccessTokenAsync(id)).accessToken).toBe(first.accessToken);
    expect(peers.google.server.count('POST /token')).toBe(tokenRequests);

    c.h.t.clock.advance(1);
    const refreshed = await calendar().getAccessTokenAsync(id);
    expect(refreshed.accessToken).not.toBe(first.accessToken);
    expect(Date.parse(refreshed.expiresAt)).toBe(c.h.t.clock.now() + PEER_ACCESS_TOKEN_SECONDS * 1000);
    expect(peers.google.server.count('POST /token')).toBe(tokenRequests + 1);
    expect(await worksAtGoogle(refreshed.accessToken)).toBe(200);

    // Concurrent callers on one node share one refresh.
    pastExpiry();
    const together = await Promise.all([1, 2, 3].map(() => calendar().getAccessTokenAsync(id)));
    expect(new Set(together.map((token) => token.accessToken)).size).toBe(1);
    expect(peers.google.server.count('POST /token')).toBe(tokenRequests + 2);

    const view = svcCalendarConnectionSchema.parse(await calendar().getConnectionAsync(id));
    expect(view.lastRefreshedAt).toBe(new Date(c.h.t.clock.now()).toISOString());
    const events = await c.h.events('calendar.connection.refreshed');
    expect(events.filter((event) => event.data.calendarConnectionId === id)).toHaveLength(2);
  });

  it('stores the refresh token Microsoft rotates, and uses it at the next refresh', async () => {
    const { id } = await connect('microsoft');
    let previous = (await calendar().getAccessTokenAsync(id)).accessToken;
    for (let round = 0; round < 2; round++) {
      pastExpiry();
      const next = (await calendar().getAccessTokenAsync(id)).accessToken;
      expect(next).not.toBe(previous);
      previous = next;
    }
    const events = (await c.h.events('calendar.connection.refreshed')).filter(
      (event) => event.data.calendarConnectionId === id,
    );
    expect(events.map((event) => event.data.refreshTokenRotated)).toEqual([true, true]);
  });

  it('a refused refresh token asks for a new consent, which the same connection takes', async () => {
    const { session, id } = await connect('microsoft');
    const stale = await db()
      .selectFrom('calendarConnections')
      .select('tokensSealed')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    pastExpiry();
    await calendar().getAccessTokenAsync(id);
    // The rotated-out refresh token put back (as a stolen copy would be used): the provider refuses it.
    await db()
      .updateTable('calendarConnections')
      .set({ tokensSealed: stale.tokensSealed })
      .where('id', '=', id)
      .execute();
    pastExpiry();
    await expect(calendar().getAccessTokenAsync(id)).rejects.toMatchObject({
      code: 'reauthorization_required',
      status: 409,
    });
    expect(await calendar().getConnectionAsync(id)).toMatchObject({ status: 'reauthorization_required' });
    await expect(calendar().getAccessTokenAsync(id)).rejects.toMatchObject({
      code: 'reauthorization_required',
    });
    const [marked] = (await c.h.events('calendar.connection.reauthorization_required')).filter(
      (event) => event.data.calendarConnectionId === id,
    );
    expect(marked?.data).toMatchObject({ reason: 'refresh_refused' });

    const again = returnedTo((await c.consent(session, 'microsoft')).answer);
    expect(again.searchParams.get('calendarConnectionId')).toBe(id);
    expect(await calendar().getConnectionAsync(id)).toMatchObject({ status: 'active' });
    expect((await calendar().getAccessTokenAsync(id)).providerType).toBe('Microsoft');
  });

  it('operators list, read, revoke (at Google too) and delete; nothing secret is ever answered', async () => {
    const { session, id } = await connect('google');
    const { id: otherId } = await connect('microsoft');
    const token = (await calendar().getAccessTokenAsync(id)).accessToken;

    const mine = await operator('GET', `/connections?userId=${session.userId}`);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json()).toMatchObject({ data: [{ id }], nextCursor: null });
    const all = await operator('GET', '/connections?limit=1');
    expect(all.json<{ data: unknown[]; nextCursor: string | null }>().nextCursor).not.toBeNull();
    expect((await operator('GET', '/connections?userId=usr_unknown')).statusCode).toBe(404);
    expect((await operator('GET', '/connections/cal_unknown')).statusCode).toBe(404);
    expect(JSON.stringify([mine.json(), all.json()])).not.toContain(token);

    const revocations = peers.google.server.count('POST /token/revocation');
    const revoked = await operator('POST', `/connections/${id}/revoke`);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(svcCalendarConnectionSchema.parse(revoked.json())).toMatchObject({
      status: 'revoked',
      offlineAccess: false,
      accessTokenExpiresAt: null,
    });
    expect(peers.google.server.count('POST /token/revocation')).toBe(revocations + 1);
    expect(await worksAtGoogle(token)).toBe(401);
    await expect(calendar().getAccessTokenAsync(id)).rejects.toMatchObject({ code: 'connection_revoked' });
    const row = await db()
      .selectFrom('calendarConnections')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.tokensSealed).toBeNull();
    // Revoking again answers the connection as it is.
    expect((await operator('POST', `/connections/${id}/revoke`)).json()).toMatchObject({ status: 'revoked' });
    const [event] = (await c.h.events('calendar.connection.revoked')).filter(
      (entry) => entry.data.calendarConnectionId === id,
    );
    expect(event).toMatchObject({ actorType: 'operator', userId: session.userId });
    expect(event?.data).toMatchObject({ providerRevoked: true });

    // Microsoft has no revocation endpoint: the tokens are dropped here all the same.
    const deleted = await operator('DELETE', `/connections/${otherId}`);
    expect(deleted.json()).toEqual({ deleted: true });
    expect((await operator('GET', `/connections/${otherId}`)).statusCode).toBe(404);
    expect((await operator('DELETE', `/connections/${otherId}`)).statusCode).toBe(404);

    // Without the operator token the routes do not exist.
    const hidden = await c.h.inject({ method: 'GET', url: `${ADMIN}/connections` });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual({ error: 'not_found', message: 'Not found.' });
  });

  it('a user lists and revokes only their own connections', async () => {
    const { session, id } = await connect('google');
    const { id: othersId } = await connect('google');
    const listed = await c.h.post('/calendar/connections', { refreshToken: session.refreshToken });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json()).toMatchObject({ data: [{ id }], nextCursor: null });

    const revoke = (calendarConnectionId: string) =>
      c.h.post('/calendar/connections/revoke', { refreshToken: session.refreshToken, calendarConnectionId });
    expect((await revoke(othersId)).statusCode).toBe(404);
    expect((await calendar().getConnectionAsync(othersId)).status).toBe('active');
    const revoked = await revoke(id);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json()).toMatchObject({ id, status: 'revoked' });
    const [event] = (await c.h.events('calendar.connection.revoked')).filter(
      (entry) => entry.data.calendarConnectionId === id,
    );
    expect(event).toMatchObject({ actorType: 'user', actorId: session.userId });
  });

  it('gives no token for a deactivated user, a disabled provider connection or an unknown id', async () => {
    const { session, id } = await connect('google');
    c.h.t.clock.advance(10 * MINUTE_MS);
    await c.h.t.svc.admin.disableOidcConnectionAsync(c.connections.google);
    try {
      await expect(calendar().getAccessTokenAsync(id)).rejects.toMatchObject({
        code: 'connection_unavailable',
      });
    } finally {
      await c.h.t.svc.admin.enableOidcConnectionAsync(c.connections.google);
    }
    await c.h.t.svc.admin.deactivateUserAsync(session.userId);
    await expect(calendar().getAccessTokenAsync(id)).rejects.toMatchObject({ code: 'user_inactive' });
    await expect(calendar().getAccessTokenAsync('cal_unknown')).rejects.toMatchObject({ status: 404 });
  });
});

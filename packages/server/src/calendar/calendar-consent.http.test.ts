import { svcCalendarAuthorizationSchema, svcCalendarConnectionSchema } from '@svc/contract';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { sha256Hex } from '../kernel/crypto.js';
import {
  APP_RETURN,
  CALENDAR_CALLBACK,
  CALENDAR_CONSENT_PAGE,
  createCalendarHarness,
  GOOGLE_EVENTS,
  MICROSOFT_TENANT,
  returnedTo,
  startCalendarPeers,
  type CalendarHarness,
  type CalendarPeers,
} from '../test-support/calendar.js';
import { describeAboveStorage } from '../test-support/databases.js';
import { CALENDAR_CONSENT_LIFETIME_MS } from './consent-states.js';

const ADMIN = '/svc/admin/calendar/api';

let peers: CalendarPeers;
beforeAll(async () => {
  peers = await startCalendarPeers();
});
afterAll(() => peers.close());

/** A user's consent at a Google- and a Microsoft-shaped provider, end to end through HTTP. */
describeAboveStorage('calendar consent', (kind) => {
  let c: CalendarHarness;
  beforeAll(async () => {
    c = await createCalendarHarness(kind, peers);
  });
  afterAll(() => c.close());
  // The providers' ID tokens carry the real time, which the fake clock must not fall behind.
  beforeEach(() => c.h.t.clock.set(Date.now()));

  const operator = (url: string) =>
    c.h.inject({ method: 'GET', url: `${ADMIN}${url}`, headers: c.h.t.operator });
  const db = () => c.h.t.svc.database.db;

  it('connects a Google calendar: offline access asked, tokens sealed, the app told the connection', async () => {
    const session = await c.signedIn();
    const run = await c.consent(session, 'google', { returnUri: `${APP_RETURN}?appState=s-123` });

    const start = svcCalendarAuthorizationSchema.parse(run.start.json());
    expect(run.start.headers['cache-control']).toBe('no-store');
    // The link opens Svc's consent page, which sends the signed-in user's browser to the provider.
    expect(start.authorizationUrl.startsWith(CALENDAR_CONSENT_PAGE)).toBe(true);
    const asked = run.providerUrl.searchParams;
    expect(asked.get('redirect_uri')).toBe(CALENDAR_CALLBACK);
    expect(asked.get('scope')?.split(' ')).toEqual(['openid', 'email', GOOGLE_EVENTS]);
    expect(asked.get('access_type')).toBe('offline');
    expect(asked.get('prompt')).toBe('consent');
    expect(asked.get('code_challenge_method')).toBe('S256');

    expect(run.answer.headers['referrer-policy']).toBe('no-referrer');
    const back = returnedTo(run.answer);
    expect(`${back.origin}${back.pathname}`).toBe(APP_RETURN);
    expect(back.searchParams.get('appState')).toBe('s-123');
    const id = back.searchParams.get('calendarConnectionId') ?? '';
    expect(id).toMatch(/^cal_/);

    const read = await operator(`/connections/${id}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(svcCalendarConnectionSchema.parse(read.json())).toMatchObject({
      id,
      userId: session.userId,
      connectionId: c.connections.google,
      providerType: 'Google',
      accountEmail: 'alice@gmail.example',
      status: 'active',
      offlineAccess: true,
      revokedAt: null,
    });
    expect(read.json<{ scopes: string[] }>().scopes).toContain(GOOGLE_EVENTS);

    // The token the host gets works at the provider.
    const token = await c.h.t.svc.calendar.getAccessTokenAsync(id);
    const userinfo = await fetch(peers.google.userInfoEndpoint, {
      headers: { authorization: `Bearer ${token.accessToken}` },
    });
    expect(userinfo.status).toBe(200);

    // Neither the token nor the state is readable in the database or the audit log.
    const rows = JSON.stringify([
      await db().selectFrom('calendarConnections').selectAll().execute(),
      await db().selectFrom('calendarConsentStates').selectAll().execute(),
      await db().selectFrom('auditEvents').selectAll().execute(),
    ]);
    expect(rows).not.toContain(token.accessToken);
    const state = asked.get('state') ?? '';
    expect(rows).not.toContain(state);
    expect(rows).toContain(sha256Hex(state));

    const [created] = await c.h.events('calendar.connection.created', session.clientId);
    expect(created).toMatchObject({ actorType: 'user', actorId: session.userId, userId: session.userId });
    expect(created?.data).toMatchObject({
      calendarConnectionId: id,
      providerType: 'Google',
      offlineAccess: true,
    });
  });

  it('connects a Microsoft calendar through the multi-tenant endpoints', async () => {
    const session = await c.signedIn();
    const run = await c.consent(session, 'microsoft');
    const asked = run.providerUrl.searchParams;
    expect(asked.get('scope')?.split(' ')).toEqual([
      'openid',
      'email',
      'offline_access',
      'Calendars.ReadWrite',
    ]);
    expect(asked.has('access_type')).toBe(false);

    const id = returnedTo(run.answer).searchParams.get('calendarConnectionId') ?? '';
    const row = await db()
      .selectFrom('calendarConnections')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      providerType: 'Microsoft',
      accountEmail: 'carol@contoso.example',
      accountIssuer: peers.microsoft.issuerOf(MICROSOFT_TENANT),
      offlineAccess: 1,
      status: 'active',
    });
    expect((await c.h.t.svc.calendar.getAccessTokenAsync(id)).scopes).toContain('Calendars.ReadWrite');
  });

  it('connecting the same account again keeps its connection; another account adds one', async () => {
    const session = await c.signedIn();
    const first = returnedTo((await c.consent(session, 'google')).answer).searchParams.get(
      'calendarConnectionId',
    );
    const again = returnedTo((await c.consent(session, 'google')).answer).searchParams.get(
      'calendarConnectionId',
    );
    expect(again).toBe(first);
    c.h.t.clock.advance(1000);
    const bob = returnedTo((await c.consent(session, 'google', { account: 'bob' })).answer);
    expect(bob.searchParams.get('calendarConnectionId')).not.toBe(first);
    const listed = await c.h.post('/calendar/connections', { refreshToken: session.refreshToken });
    expect(
      listed.json<{ data: { accountEmail: string }[] }>().data.map((entry) => entry.accountEmail),
    ).toEqual(['bob@gmail.example', 'alice@gmail.example']);
    expect(await c.h.events('calendar.connection.reconnected', session.clientId)).toHaveLength(1);
  });

  it('takes a callback once: a replay is a 400, never a redirect', async () => {
    const session = await c.signedIn();
    const run = await c.consent(session, 'google');
    expect(returnedTo(run.answer).searchParams.has('calendarConnectionId')).toBe(true);
    const replay = await c.callback(run.providerCallback);
    expect(replay.statusCode).toBe(400);
    expect(replay.headers.location).toBeUndefined();
    expect(replay.json()).toMatchObject({ error: 'invalid_state' });

    // A browser is shown a finished page saying what to do, still a 400 and never a redirect.
    const shown = await c.h.inject({
      method: 'GET',
      url: `/svc/auth/calendar/callback?state=never-sent&code=abc`,
      headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    });
    expect(shown.statusCode).toBe(400);
    expect(shown.headers.location).toBeUndefined();
    expect(shown.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(shown.headers['content-security-policy']).toContain("default-src 'none'");
    expect(shown.body).toContain('This calendar consent cannot be used');
    expect(shown.body).toContain('Start again from the app.');

    for (const query of ['', '?state=', '?state=never-sent&code=abc', '?code=abc']) {
      const forged = await c.h.inject({ method: 'GET', url: `/svc/auth/calendar/callback${query}` });
      expect(forged.statusCode, query).toBe(400);
      expect(forged.headers.location).toBeUndefined();
    }
  });

  it('a consent expires after ten minutes', async () => {
    const session = await c.signedIn();
    const start = await c.h.post('/calendar/authorization-url', {
      refreshToken: session.refreshToken,
      connectionId: c.connections.google,
      returnUri: APP_RETURN,
    });
    const url = svcCalendarAuthorizationSchema.parse(start.json()).authorizationUrl;
    const providerUrl = await c.open(session.browser, url);
    const providerCallback = await peers.google.signIn(providerUrl.href, 'alice');
    c.h.t.clock.advance(CALENDAR_CONSENT_LIFETIME_MS);
    expect((await c.callback(providerCallback, session.browser)).statusCode).toBe(400);

    // The link itself expires with it: a 400 page, never a redirect.
    const late = await session.browser.get(url);
    expect(late.statusCode).toBe(400);
    expect(late.headers.location).toBeUndefined();
    expect(late.body).toContain('This calendar consent link is no longer valid');
  });

  it('sends the refusals back to the app: access_denied, insufficient_scope, a connection disabled meanwhile', async () => {
    const session = await c.signedIn();
    const denied = await c.consent(session, 'google', { choices: { deny: true } });
    expect(returnedTo(denied.answer).searchParams.get('error')).toBe('access_denied');
    expect(returnedTo(denied.answer).searchParams.has('calendarConnectionId')).toBe(false);
    c.h.t.clock.advance(1000);

    const unticked = await c.consent(session, 'google', { choices: { withhold: [GOOGLE_EVENTS] } });
    expect(returnedTo(unticked.answer).searchParams.get('error')).toBe('insufficient_scope');

    const failures = await c.h.events('calendar.connection.failed', session.clientId);
    expect(failures.map((event) => event.data.error)).toEqual(['access_denied', 'insufficient_scope']);
    expect(failures[1]?.data).toMatchObject({ missingScopes: [GOOGLE_EVENTS] });

    const start = await c.h.post('/calendar/authorization-url', {
      refreshToken: session.refreshToken,
      connectionId: c.connections.microsoft,
      returnUri: APP_RETURN,
    });
    const url = svcCalendarAuthorizationSchema.parse(start.json()).authorizationUrl;
    const providerUrl = await c.open(session.browser, url);
    const providerCallback = await peers.microsoft.signIn(providerUrl.href, 'carol');
    await c.h.t.svc.admin.disableOidcConnectionAsync(c.connections.microsoft);
    try {
      const answer = await c.callback(providerCallback, session.browser);
      expect(returnedTo(answer).searchParams.get('error')).toBe('connection_unavailable');
    } finally {
      await c.h.t.svc.admin.enableOidcConnectionAsync(c.connections.microsoft);
    }
    const rows = await db()
      .selectFrom('calendarConnections')
      .select('id')
      .where('userId', '=', session.userId)
      .execute();
    expect(rows).toEqual([]);
  });

  it('refuses a returnUri that is not the app’s own, before anything is remembered', async () => {
    const session = await c.signedIn();
    const before = await db().selectFrom('calendarConsentStates').select('tokenHash').execute();
    for (const returnUri of [
      'https://attacker.example/settings/calendar',
      'https://app.example.com/elsewhere',
      'http://app.example.com/settings/calendar',
      'https://app.example.com:8443/settings/calendar',
      `${APP_RETURN}#fragment`,
      'https://user:pass@app.example.com/settings/calendar',
    ]) {
      const refused = await c.h.post('/calendar/authorization-url', {
        refreshToken: session.refreshToken,
        connectionId: c.connections.google,
        returnUri,
      });
      expect(refused.statusCode, returnUri).toBe(400);
      expect(refused.json<{ message: string }>().message, returnUri).toContain('returnUri');
    }
    expect(await db().selectFrom('calendarConsentStates').select('tokenHash').execute()).toEqual(before);
  });

  it('starts in process for a user the host vouches for', async () => {
    const session = await c.signedIn();
    const start = await c.h.t.svc.calendar.startConnectionAsync({
      userId: session.userId,
      clientId: session.clientId,
      connectionId: c.connections.google,
      returnUri: APP_RETURN,
      scopes: ['https://www.googleapis.com/auth/calendar.readonly'],
    });
    const providerUrl = await c.open(session.browser, start.authorizationUrl);
    expect(providerUrl.searchParams.get('scope')).toContain('calendar.readonly');
    expect(Date.parse(start.expiresAt) - c.h.t.clock.now()).toBe(CALENDAR_CONSENT_LIFETIME_MS);
    const providerCallback = await peers.google.signIn(providerUrl.href, 'alice');
    const answer = await c.callback(providerCallback, session.browser);
    const id = returnedTo(answer).searchParams.get('calendarConnectionId') ?? '';
    expect((await c.h.t.svc.calendar.getConnectionAsync(id)).userId).toBe(session.userId);

    await expect(
      c.h.t.svc.calendar.startConnectionAsync({
        userId: 'usr_unknown',
        clientId: session.clientId,
        connectionId: c.connections.google,
        returnUri: APP_RETURN,
      }),
    ).rejects.toMatchObject({ status: 404 });
  });
});

import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  APP_RETURN,
  CALENDAR_CALLBACK,
  createCalendarHarness,
  GOOGLE_EVENTS,
  startCalendarPeers,
  type CalendarHarness,
  type CalendarPeers,
  type CalendarSession,
} from '../test-support/calendar.js';
import { describeAboveStorage } from '../test-support/databases.js';
import { createDirectHarness, type DirectHarness } from '../test-support/direct-test-app.js';

const ADMIN = '/svc/admin/calendar/api';

let peers: CalendarPeers;
beforeAll(async () => {
  peers = await startCalendarPeers();
});
afterAll(() => peers.close());

/** Malformed requests are 4xx naming the field; with calendar connections off, nothing is mapped. */
describeAboveStorage('calendar inputs', (kind) => {
  let c: CalendarHarness;
  let session: CalendarSession;
  beforeAll(async () => {
    c = await createCalendarHarness(kind, peers);
    session = await c.signedIn();
  });
  afterAll(() => c.close());

  const start = (body: Record<string, unknown>) =>
    c.h.post('/calendar/authorization-url', {
      refreshToken: session.refreshToken,
      connectionId: c.connections.google,
      returnUri: APP_RETURN,
      ...body,
    });

  it('answers a malformed start with a 400 naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ connectionId: undefined }, 'connectionId'],
      [{ connectionId: 42 }, 'connectionId'],
      [{ connectionId: 'a\u0000b' }, 'connectionId'],
      [{ returnUri: undefined }, 'returnUri'],
      [{ returnUri: 'not a uri' }, 'returnUri'],
      [{ returnUri: ['https://app.example.com/settings/calendar'] }, 'returnUri'],
      [{ returnUri: `https://app.example.com/${'x'.repeat(3000)}` }, 'returnUri'],
      [{ scopes: GOOGLE_EVENTS }, 'scopes'],
      [{ scopes: [] }, 'scopes'],
      [{ scopes: ['https://www.googleapis.com/auth/gmail.readonly'] }, 'scopes'],
      [{ scopes: ['Calendars.ReadWrite'] }, 'scopes'],
      [{ scopes: ['two words'] }, 'scopes'],
      [{ refreshToken: 'bad\ntoken' }, 'refreshToken'],
      [{ refreshToken: 7 }, 'refreshToken'],
    ];
    for (const [body, field] of cases) {
      const response = await start(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json<{ message: string }>().message, JSON.stringify(body)).toContain(field);
    }
    for (const payload of ['[]', '"text"', '{"connectionId":']) {
      expect((await c.h.post('/calendar/authorization-url', payload)).statusCode, payload).toBe(400);
    }
  });

  it('needs an active first-party session: no token or an unknown one is a 401', async () => {
    for (const refreshToken of [undefined, null, 'never-issued']) {
      const response = await start({ refreshToken });
      expect(response.statusCode, String(refreshToken)).toBe(401);
      expect(response.json()).toMatchObject({ error: 'invalid_token' });
      expect((await c.h.post('/calendar/connections', { refreshToken })).statusCode).toBe(401);
    }
  });

  it('refuses a connection that is not a calendar provider or does not list the calendar callback', async () => {
    const admin = c.h.t.svc.admin;
    const github = await admin.createOidcConnectionAsync({
      providerType: 'GitHub',
      clientId: 'gh',
      clientSecret: 'gh-secret',
      allowedCallbackUris: [CALENDAR_CALLBACK],
    });
    const signInOnly = await admin.createOidcConnectionAsync({
      providerType: 'Google',
      clientId: 'google',
      clientSecret: 'google-secret',
      discoveryUrl: peers.google.discoveryUrl,
      allowedCallbackUris: ['http://localhost:8080/svc/auth/oidc/callback'],
    });
    for (const connectionId of [github.id, signInOnly.id, 'oidc_unknown']) {
      const response = await start({ connectionId });
      expect(response.statusCode, connectionId).toBe(400);
      expect(response.json<{ message: string }>().message).toContain('connectionId');
    }
    expect((await start({ connectionId: signInOnly.id })).json<{ message: string }>().message).toContain(
      CALENDAR_CALLBACK,
    );
  });

  it('answers malformed operator queries and ids with a 400', async () => {
    for (const url of [
      '/connections?limit=0',
      '/connections?limit=abc',
      '/connections?cursor=not-a-cursor',
      '/connections/%00',
      '/connections/a%0Ab/revoke',
    ]) {
      const method = url.endsWith('/revoke') ? 'POST' : 'GET';
      const response = await c.h.inject({ method, url: `${ADMIN}${url}`, headers: c.h.t.operator });
      expect(response.statusCode, url).toBe(400);
      expect(response.json()).toMatchObject({ error: 'invalid_request' });
    }
    const revoke = await c.h.post('/calendar/connections/revoke', {
      refreshToken: session.refreshToken,
      calendarConnectionId: ['cal_x'],
    });
    expect(revoke.statusCode).toBe(400);
    expect(revoke.json<{ message: string }>().message).toContain('calendarConnectionId');
  });
});

describeAboveStorage('calendar connections turned off', (kind) => {
  let h: DirectHarness;
  beforeAll(async () => {
    h = await createDirectHarness(kind, { calendar: { enabled: false } });
  });
  afterAll(() => h.close());

  it('maps no callback, direct or operator route, and refuses the in-process calls', async () => {
    const requests = [
      { method: 'GET', url: '/svc/auth/calendar/callback?state=x&code=y' },
      { method: 'POST', url: '/svc/auth/calendar/authorization-url', payload: {} },
      { method: 'POST', url: '/svc/auth/calendar/connections', payload: {} },
      { method: 'GET', url: `${ADMIN}/connections`, headers: h.t.operator },
      { method: 'POST', url: `${ADMIN}/connections/cal_x/revoke`, headers: h.t.operator },
    ] as const;
    for (const request of requests) {
      const response = await h.inject(request);
      expect(response.statusCode, request.url).toBe(404);
      expect(response.json()).toEqual({ error: 'not_found', message: 'Not found.' });
    }
    await expect(h.t.svc.calendar.getAccessTokenAsync('cal_x')).rejects.toMatchObject({
      code: 'invalid_operation',
    });
    await expect(h.t.svc.calendar.listConnectionsAsync()).rejects.toMatchObject({
      code: 'invalid_operation',
    });
  });
});

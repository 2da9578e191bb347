import { svcCalendarAuthorizationSchema } from '@svc/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import {
  APP_RETURN,
  createCalendarHarness,
  returnedTo,
  startCalendarPeers,
  type CalendarHarness,
  type CalendarPeers,
  type CalendarSession,
} from '../test-support/calendar.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { InjectBrowser } from '../test-support/inject-browser.js';

let peers: CalendarPeers;
beforeAll(async () => {
  peers = await startCalendarPeers();
});
afterAll(() => peers.close());

/**
 * The consent swap (RFC 6749 §10.12): a consent one user started, finished in another user's browser,
 * must never store that browser's calendar on the starting user's account. A consent is bound to the
 * browser that opened its link and to the user signed in there.
 */
describeEachDatabase('calendar consent bound to its browser and its user', (kind) => {
  let c: CalendarHarness;
  beforeAll(async () => {
    c = await createCalendarHarness(kind, peers);
  });
  afterAll(() => c.close());
  beforeEach(() => c.h.t.clock.set(Date.now()));

  const start = async (session: CalendarSession) => {
    const started = await c.h.post('/calendar/authorization-url', {
      refreshToken: session.refreshToken,
      connectionId: c.connections.google,
      returnUri: APP_RETURN,
    });
    expect(started.statusCode, started.body).toBe(200);
    return svcCalendarAuthorizationSchema.parse(started.json()).authorizationUrl;
  };
  const connectionsOf = (userId: string) =>
    c.h.t.svc.database.db
      .selectFrom('calendarConnections')
      .select('id')
      .where('userId', '=', userId)
      .execute();
  /** The app page the browser was sent back to: the error, and no connection. */
  const refusedBack = (answer: LightMyRequestResponse | URL): string | null => {
    const back = answer instanceof URL ? answer : returnedTo(answer);
    expect(`${back.origin}${back.pathname}`).toBe(APP_RETURN);
    expect(back.searchParams.has('calendarConnectionId')).toBe(false);
    return back.searchParams.get('error');
  };

  /** The victim's browser follows a URL the attacker sent: to the provider (consenting there) and back. */
  async function followedByVictim(victim: InjectBrowser, url: string): Promise<LightMyRequestResponse | URL> {
    const next = await c.open(victim, url);
    if (next.origin === new URL(APP_RETURN).origin) return next;
    return c.callback(await peers.google.signIn(next.href, 'alice'), victim);
  }

  it("the attacker's consent link, opened in the victim's signed-in browser, stores nothing on the attacker's account", async () => {
    const attacker = await c.signedIn();
    const victim = await c.signedIn();
    const answer = await followedByVictim(victim.browser, await start(attacker));
    expect(refusedBack(answer)).toBe('login_required');
    expect(await connectionsOf(attacker.userId)).toEqual([]);
    expect(await connectionsOf(victim.userId)).toEqual([]);
  });

  it("the provider's URL of the attacker's own browser, finished in the victim's browser, is refused", async () => {
    const attacker = await c.signedIn();
    const victim = await c.signedIn();
    const providerUrl = await c.open(attacker.browser, await start(attacker));
    expect(providerUrl.origin).not.toBe(new URL(APP_RETURN).origin);
    const answer = await c.callback(await peers.google.signIn(providerUrl.href, 'alice'), victim.browser);
    expect(refusedBack(answer)).toBe('login_required');
    expect(await connectionsOf(attacker.userId)).toEqual([]);
    expect(await c.h.events('calendar.connection.failed', attacker.clientId)).toContainEqual(
      expect.objectContaining({
        userId: attacker.userId,
        data: expect.objectContaining({ error: 'login_required' }),
      }),
    );
  });

  it('a browser without an issuer session of the user neither reaches the provider nor connects', async () => {
    const user = await c.signedIn();
    const stranger = new InjectBrowser(c.h);
    const page = await stranger.get(await start(user));
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(stranger.cookies.has('svc_af')).toBe(true);
    expect(refusedBack(returnedTo(page))).toBe('login_required');
    expect(await connectionsOf(user.userId)).toEqual([]);
  });

  it("the user's callback in another of their browsers is refused: the consent is that browser's", async () => {
    const user = await c.signedIn();
    const elsewhere = await c.browserOf(user.email);
    const providerUrl = await c.open(user.browser, await start(user));
    const answer = await c.callback(await peers.google.signIn(providerUrl.href, 'alice'), elsewhere);
    expect(refusedBack(answer)).toBe('invalid_callback');
    expect(await connectionsOf(user.userId)).toEqual([]);
  });

  it('a changed or forged link is a 400 naming no return address, and starts nothing', async () => {
    const user = await c.signedIn();
    const link = new URL(await start(user));
    const sealed = link.searchParams.get('token') ?? '';
    for (const token of [`${sealed.slice(0, -2)}AA`, 'v1.forged', '']) {
      link.searchParams.set('token', token);
      const refused = await user.browser.get(link.href);
      expect(refused.statusCode, token).toBe(400);
      expect(refused.headers.location).toBeUndefined();
      expect(refused.json()).toMatchObject({ error: 'invalid_state' });
    }
  });

  it("the user's own browser connects; the callback in it after its session ended is refused", async () => {
    const user = await c.signedIn();
    const run = await c.consent(user, 'google');
    expect(returnedTo(run.answer).searchParams.get('calendarConnectionId')).toMatch(/^cal_/);

    const providerUrl = await c.open(user.browser, await start(user));
    const providerCallback = await peers.google.signIn(providerUrl.href, 'bob');
    await user.browser.get(`${c.h.authBase}/logout`);
    expect(refusedBack(await c.callback(providerCallback, user.browser))).toBe('login_required');
    expect(await connectionsOf(user.userId)).toHaveLength(1);
  });
});

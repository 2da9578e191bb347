import type { SvcCreatedClient } from '@svc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authorizeQuery, pkcePair } from '../test-support/authorize-params.js';
import { describeEachDatabase } from '../test-support/databases.js';
import {
  createHostedTestApp,
  HOSTED_PASSWORD,
  type HostedTestApp,
  type TestUser,
} from '../test-support/hosted-test-app.js';
import { InjectBrowser } from '../test-support/inject-browser.js';
import { operatorApi } from '../test-support/operator-api.js';

const ADMIN = '/svc/admin/auth/api';

/**
 * An operator's revocation ends the issuer (browser) sessions of the users it names or whose token
 * sessions it revokes, in the same transaction: otherwise `prompt=none` in that browser would mint new
 * tokens at once. The sessions live in the database only, so every node sees the end.
 */
describeEachDatabase('session revocation ends the browser sessions', (kind) => {
  let h: HostedTestApp;
  let web: SvcCreatedClient;
  beforeAll(async () => {
    h = await createHostedTestApp(kind);
    web = await h.given.client();
  });
  afterAll(() => h.close());
  const api = operatorApi(ADMIN, () => h.t);

  /** `user` signed in on the hosted pages in a new browser, the code redeemed: the browser and its token session. */
  async function signedIn(user: TestUser): Promise<{ b: InjectBrowser; sessionId: string }> {
    const b = new InjectBrowser(h);
    const { verifier, challenge } = pkcePair();
    const done = await b.signIn(
      await b.authorize(authorizeQuery(web.clientId, {}, challenge)),
      user.email,
      HOSTED_PASSWORD,
    );
    const tokens = await h.redeem(InjectBrowser.location(done), web.clientId, verifier);
    return { b, sessionId: tokens.sessionId };
  }

  /** What prompt=none answers in `b`: a code (`signed_in`) or the OAuth error. */
  async function silently(b: InjectBrowser): Promise<string> {
    const back = InjectBrowser.location(await b.authorize(authorizeQuery(web.clientId, { prompt: 'none' })));
    return back.searchParams.get('error') ?? (back.searchParams.has('code') ? 'signed_in' : 'nothing');
  }

  const revoke = async (selector: Record<string, string>) => {
    const preview = await api('POST', '/sessions/revocation/preview', selector);
    expect(preview.status, preview.text).toBe(200);
    const executed = await api('POST', '/sessions/revocation', { ...selector, confirm: true });
    expect(executed.status, executed.text).toBe(200);
    return { preview: preview.body, result: executed.body };
  };

  it('by user: every browser of the user answers prompt=none with login_required; a bystander stays signed in', async () => {
    const user = await h.given.user();
    const [laptop, phone] = [await signedIn(user), await signedIn(user)];
    const bystander = await signedIn(await h.given.user());
    expect(await silently(laptop.b)).toBe('signed_in');

    const { preview, result } = await revoke({ userId: user.id });
    expect(preview).toMatchObject({ matchedSessions: 2, activeBrowserSessions: 2 });
    expect(result).toMatchObject({ matchedSessions: 2, endedBrowserSessions: 2 });
    expect(await silently(laptop.b)).toBe('login_required');
    expect(await silently(phone.b)).toBe('login_required');
    expect(await silently(bystander.b)).toBe('signed_in');
    const [event] = (await h.auditEvents('admin.sessions.revoked')).filter((e) => e.userId === user.id);
    expect(JSON.parse(event?.dataJson ?? '{}')).toMatchObject({ endedBrowserSessions: 2 });
  });

  it('by session: the browser sessions of its user end', async () => {
    const user = await h.given.user();
    const { b, sessionId } = await signedIn(user);
    const bystander = await signedIn(await h.given.user());
    const { result } = await revoke({ sessionId });
    expect(result).toMatchObject({ matchedSessions: 1, newlyRevokedSessions: 1, endedBrowserSessions: 1 });
    expect(await silently(b)).toBe('login_required');
    expect(await silently(bystander.b)).toBe('signed_in');
  });

  it('by organization: the browser sessions of the users whose sessions there were revoked end', async () => {
    const organization = await h.given.organization();
    const member = await h.given.user();
    await h.t.svc.admin.createMembershipAsync({
      organizationId: organization.id,
      userId: member.id,
      role: 'member',
    });
    const inside = await signedIn(member);
    const outside = await signedIn(await h.given.user());
    const { preview, result } = await revoke({ organizationId: organization.id });
    expect(preview).toMatchObject({ matchedSessions: 1, activeBrowserSessions: 1 });
    expect(result).toMatchObject({ matchedSessions: 1, endedBrowserSessions: 1 });
    expect(await silently(inside.b)).toBe('login_required');
    expect(await silently(outside.b)).toBe('signed_in');
  });

  it('by user without a token session: the browser session alone is matched and ended (in process too)', async () => {
    const user = await h.given.user();
    const b = new InjectBrowser(h);
    await b.signIn(await b.authorize(authorizeQuery(web.clientId)), user.email, HOSTED_PASSWORD);
    const selector = { userId: user.id };
    expect(await h.t.svc.admin.previewSessionRevocationAsync(selector)).toEqual({
      matchedSessions: 0,
      activeRefreshTokens: 0,
      activeBrowserSessions: 1,
    });
    expect(await h.t.svc.admin.revokeSessionsAsync({ ...selector, confirm: true })).toEqual({
      matchedSessions: 0,
      newlyRevokedSessions: 0,
      alreadyRevokedSessions: 0,
      newlyRevokedRefreshTokens: 0,
      endedBrowserSessions: 1,
    });
    expect(await silently(b)).toBe('login_required');
    // Nothing left to end: the generic 404.
    expect((await api('POST', '/sessions/revocation', { ...selector, confirm: true })).status).toBe(404);
  });
});

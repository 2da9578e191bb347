import type { SvcCreatedClient } from '@svc/contract';
import type { LightMyRequestResponse } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { MINUTE_MS } from '../../kernel/clock.js';
import { authorizeQuery, CLIENT_REDIRECT_URI, pkcePair } from '../../test-support/authorize-params.js';
import { describeAboveStorage } from '../../test-support/databases.js';
import {
  createMailedHostedTestApp,
  uniqueName,
  type MailedHostedTestApp,
  type TestUser,
} from '../../test-support/hosted-test-app.js';
import { InjectBrowser, setCookies } from '../../test-support/inject-browser.js';
import { codeIn, linkIn } from '../../test-support/outbox.js';
import type { CapturedEmail } from '../../test-support/smtp-server.js';
import { HOSTED_MESSAGES } from '../form.js';

const EXPIRED_FORM = 'This form has expired';
const LINK_INVALID = 'This sign-in link is no longer valid';
const OTHER_BROWSER = 'Open the link in the browser where you asked for it';

describeAboveStorage('hosted email codes and sign-in links', (kind) => {
  let h: MailedHostedTestApp;
  let web: SvcCreatedClient;

  beforeAll(async () => {
    h = await createMailedHostedTestApp(kind);
    web = await h.given.client();
  });
  afterAll(async () => {
    await h?.close();
  });
  // Past every send window (per address and per IP), so that tests do not throttle each other.
  beforeEach(() => {
    h.t.clock.advance(16 * MINUTE_MS);
  });

  /** Enough time for a wrongly sent message to arrive on the loopback server. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

  /** The first message to `address` after the first `after` messages, once it has arrived. */
  async function mailTo(address: string, after = 0): Promise<CapturedEmail> {
    for (let count = 1; ; count += 1) {
      const found = (await h.smtp.waitFor(count)).filter((m) => m.rcptTo.includes(address))[after];
      if (found !== undefined) return found;
    }
  }

  const code = (response: LightMyRequestResponse) =>
    InjectBrowser.location(response).searchParams.get('code');

  /** A browser on the email sign-in page of a new request, reached through the identify page's link. */
  async function atEmailPage(client = web, query: Record<string, string> = {}, challenge?: string) {
    const b = new InjectBrowser(h);
    await b.follow(await b.authorize(authorizeQuery(client.clientId, query, challenge)));
    const page = await b.click('Email me a sign-in code');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`action="${h.authBase}/login/email-otp/start"`);
    expect(page.body).toContain(`formaction="${h.authBase}/login/magic-link/start"`);
    return b;
  }

  /** The page's markup with this request's own values (id, antiforgery token) blanked. */
  function normalized(b: InjectBrowser, response: LightMyRequestResponse): string {
    return [
      response.statusCode,
      response.headers.location ?? '',
      setCookies(response)
        .map((c) => c.name)
        .join(','),
      response.body,
    ]
      .join('\n')
      .replaceAll(b.fields.request_id ?? 'none', 'REQUEST')
      .replaceAll(b.fields._csrf ?? 'none', 'CSRF');
  }

  it('the identify and password steps link to email sign-in, prefilled from login_hint or the identified email', async () => {
    const user = await h.given.user();
    const hinted = await atEmailPage(web, { login_hint: user.email });
    expect(hinted.page).toMatch(new RegExp(`id="email"[^>]*value="${user.email}"`, 's'));
    expect(hinted.page).toContain('Sign in with email');

    const b = new InjectBrowser(h);
    await b.follow(await b.authorize(authorizeQuery(web.clientId)));
    await b.follow(await b.post('/login/identify', { email: user.email }));
    expect(b.page).toContain('Enter your password');
    const page = await b.click('Email me a code instead');
    expect(page.body).toMatch(new RegExp(`id="email"[^>]*value="${user.email}"`, 's'));

    // view=email-otp at /authorize opens the same page.
    const viewed = new InjectBrowser(h);
    const entry = await viewed.authorize(authorizeQuery(web.clientId, { view: 'email-otp' }));
    expect(InjectBrowser.location(entry).pathname).toBe(`${h.authBase}/login/email-otp`);
    expect((await viewed.follow(entry)).body).toContain('Sign in with email');
  });

  it('signs in with an emailed code: the enter-code step, a wrong code inline (400), then the client gets a code; amr otp; email verified', async () => {
    const user = await h.given.user();
    const { verifier, challenge } = pkcePair();
    const b = await atEmailPage(web, { scope: 'openid' }, challenge);
    const started = await b.post('/login/email-otp/start', { email: ` ${user.email} ` });
    expect(started.statusCode).toBe(303);
    expect(InjectBrowser.location(started).pathname).toBe(`${h.authBase}/login`);
    const step = await b.follow(started);
    expect(step.statusCode).toBe(200);
    expect(step.body).toContain('Check your email');
    expect(step.body).toContain(`<strong>u***@example.com</strong>`);
    expect(step.body).toContain(`action="${h.authBase}/login/email-otp/verify"`);
    expect(step.body).toContain('autocomplete="one-time-code"');
    const sent = codeIn((await mailTo(user.email)).text);

    for (const typed of [sent === '000000' ? '111111' : '000000', 'abc', '']) {
      const wrong = await b.post('/login/email-otp/verify', { code: typed });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.body).toContain(HOSTED_MESSAGES.codeInvalid);
      expect(wrong.body).toContain('aria-invalid="true"');
    }
    const done = await b.post('/login/email-otp/verify', { code: `${sent.slice(0, 3)} ${sent.slice(3)}` });
    expect(done.statusCode).toBe(303);
    expect(InjectBrowser.location(done).toString()).toMatch(new RegExp(`^${CLIENT_REDIRECT_URI}\\?code=`));
    expect(setCookies(done).map((c) => c.name)).toContain('svc_session');
    const tokens = await h.redeem(InjectBrowser.location(done), web.clientId, verifier);
    expect(decodeJwt(tokens.idToken ?? '')).toMatchObject({ sub: user.id, amr: ['otp'] });
    const row = await h.t.svc.database.db
      .selectFrom('users')
      .select('emailVerified')
      .where('id', '=', user.id)
      .executeTakeFirst();
    expect(Number(row?.emailVerified)).toBe(1);
    expect((await h.auditEvents('oauth.hosted_login.succeeded')).at(-1)?.dataJson).toContain('email_otp');
    // The request is finished: the same code again gets the start-again page.
    const replay = await b.post('/login/email-otp/verify', { code: sent });
    expect(replay.statusCode).toBe(400);
    expect(replay.body).toContain('This sign-in has expired');
  });

  it('serves any active client of the request: a third-party client gets consent after the code', async () => {
    const user = await h.given.user();
    const third = await h.given.client({ isFirstParty: false });
    const b = await atEmailPage(third);
    await b.follow(await b.post('/login/email-otp/start', { email: user.email }));
    const consent = await b.follow(
      await b.post('/login/email-otp/verify', { code: codeIn((await mailTo(user.email)).text) }),
    );
    expect(consent.statusCode).toBe(200);
    expect(consent.body).toContain(`Allow ${third.name} to access your account?`);
    expect(code(await b.post('/consent/approve'))).toBeTruthy();
  });

  it('an unknown address gets byte-identical answers and pages (code and link), no email, and never verifies', async () => {
    const user = await h.given.user();
    const unknown = `${uniqueName('user')}-unknown@example.com`;
    for (const path of ['/login/email-otp/start', '/login/magic-link/start']) {
      const answers: string[] = [];
      for (const email of [user.email, unknown]) {
        const b = await atEmailPage();
        const started = await b.post(path, { email });
        const page = await b.follow(started);
        answers.push(`${normalized(b, started)}\n${normalized(b, page)}`);
      }
      expect(answers[1]).toBe(answers[0]);
    }
    await mailTo(user.email, 1);
    await settle();
    expect(h.smtp.to(unknown)).toEqual([]);
    h.t.clock.advance(31_000); // past the 30-second resend gate of the address
    const b = await atEmailPage();
    await b.follow(await b.post('/login/email-otp/start', { email: unknown }));
    for (const typed of ['000000', '123456']) {
      const response = await b.post('/login/email-otp/verify', { code: typed });
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain(HOSTED_MESSAGES.codeInvalid);
    }
  });

  it('five wrong codes use the challenge up; an expired code fails; both are the inline error', async () => {
    const user = await h.given.user();
    const b = await atEmailPage();
    await b.follow(await b.post('/login/email-otp/start', { email: user.email }));
    const sent = codeIn((await mailTo(user.email)).text);
    const failedBefore = (await h.auditEvents('oauth.hosted_login.failed')).length;
    for (let i = 0; i < 5; i += 1) {
      expect(
        (await b.post('/login/email-otp/verify', { code: sent === '000000' ? '111111' : '000000' }))
          .statusCode,
      ).toBe(400);
    }
    const exhausted = await b.post('/login/email-otp/verify', { code: sent });
    expect(exhausted.statusCode).toBe(400);
    expect(exhausted.body).toContain(HOSTED_MESSAGES.codeInvalid);
    expect(await h.auditEvents('oauth.hosted_login.failed')).toHaveLength(failedBefore + 6);

    h.t.clock.advance(31_000); // past the 30-second resend gate of the address
    const late = await atEmailPage();
    await late.follow(await late.post('/login/email-otp/start', { email: user.email }));
    const lateCode = codeIn((await mailTo(user.email, 1)).text);
    h.t.clock.advance(10 * MINUTE_MS);
    const expired = await late.post('/login/email-otp/verify', { code: lateCode });
    expect(expired.statusCode).toBe(400);
    expect(expired.body).toContain(HOSTED_MESSAGES.codeInvalid);
    // "Send a new code" leads back to the email page with the address filled in.
    const again = await late.click('Send a new code');
    expect(again.body).toMatch(new RegExp(`id="email"[^>]*value="${user.email}"`, 's'));
  });

  it('"send a new code" within 30 seconds says so (429, when to ask again), sends nothing, and the first code still works', async () => {
    const user = await h.given.user();
    const b = await atEmailPage();
    await b.follow(await b.post('/login/email-otp/start', { email: user.email }));
    expect(b.page).toContain('You can ask for a new code in 30 seconds.');
    const sent = codeIn((await mailTo(user.email)).text);
    h.t.clock.advance(10_000);
    const second = await b.post('/login/email-otp/start', { email: user.email });
    expect(second.statusCode).toBe(429);
    expect(second.headers['retry-after']).toBe('20');
    // The step that waits for the code already sent, with the refusal instead of a new "we emailed".
    expect(second.body).toContain(`action="${h.authBase}/login/email-otp/verify"`);
    expect(second.body).toContain(
      'It is too soon to send another message, so nothing was sent. You can ask again in 20 seconds.',
    );
    expect(second.body).not.toContain('You can ask for a new code');
    await settle();
    expect(h.smtp.to(user.email)).toHaveLength(1);
    expect(code(await b.post('/login/email-otp/verify', { code: sent }))).toBeTruthy();
  });

  it('antiforgery: posts without the token, from another origin or another browser are refused before anything is sent or counted', async () => {
    const user = await h.given.user();
    const b = await atEmailPage();
    const emailPage = `${h.authBase}/login/email-otp?request_id=${b.fields.request_id}`;
    const failedBefore = (await h.auditEvents('auth.email_otp.failed')).length;
    const refused = [
      await b.post('/login/email-otp/start', { email: user.email }, { withoutToken: true }),
      await b.post('/login/magic-link/start', { email: user.email }, { origin: 'https://evil.example.com' }),
    ];
    const other = new InjectBrowser(h);
    await other.follow(await other.authorize(authorizeQuery(web.clientId)));
    other.page = b.page;
    refused.push(await other.post('/login/email-otp/start', { email: user.email }));
    // A refusal leaves this browser on the error page: back to the form, as the user would go.
    await b.get(emailPage);
    await b.follow(await b.post('/login/email-otp/start', { email: user.email }));
    const codePage = b.page;
    const sent = codeIn((await mailTo(user.email)).text);
    refused.push(await b.post('/login/email-otp/verify', { code: sent }, { withoutToken: true }));
    b.page = codePage;
    refused.push(await b.post('/login/magic-link/resend', {}, { origin: null }));
    for (const response of refused) {
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain(EXPIRED_FORM);
    }
    await settle();
    expect(h.smtp.to(user.email)).toHaveLength(1);
    expect(await h.auditEvents('auth.email_otp.failed')).toHaveLength(failedBefore);
    b.page = codePage;
    expect(code(await b.post('/login/email-otp/verify', { code: sent }))).toBeTruthy();
  });

  it('the email page: an empty or malformed address comes back inline; a request of another browser is the start-again page', async () => {
    const b = await atEmailPage();
    const empty = await b.post('/login/email-otp/start', { email: ' ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain(HOSTED_MESSAGES.emailRequired);
    const malformed = await b.post('/login/magic-link/start', { email: 'not-an-email' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.body).toContain(HOSTED_MESSAGES.emailInvalid);
    expect(malformed.body).toMatch(/id="email"[^>]*value="not-an-email"/s);
    const stranger = new InjectBrowser(h);
    const foreign = await stranger.get(`${h.authBase}/login/email-otp?request_id=${b.fields.request_id}`);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.body).toContain('This sign-in has expired');
    for (const query of ['', '?request_id=', '?request_id=%00']) {
      expect((await b.get(`${h.authBase}/login/email-otp${query}`)).statusCode).toBe(400);
    }
  });

  /** A browser whose request waits for an emailed link to `user`; the link. */
  async function linkSent(user: TestUser, query: Record<string, string> = {}, challenge?: string) {
    const b = await atEmailPage(web, query, challenge);
    const before = h.smtp.to(user.email).length;
    const page = await b.follow(await b.post('/login/magic-link/start', { email: user.email }));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Check your email');
    expect(page.body).toContain('we emailed it a sign-in link');
    return { b, link: linkIn((await mailTo(user.email, before)).text) };
  }

  it('a link opened in the same browser signs in once: GET shows Continue and uses nothing, the post continues to the client with amr email', async () => {
    const user = await h.given.user();
    const { verifier, challenge } = pkcePair();
    const { b, link } = await linkSent(user, { scope: 'openid' }, challenge);
    expect(link).toMatch(new RegExp(`^http://localhost:8080${h.authBase}/magic-link\\?token=`));
    for (let i = 0; i < 2; i += 1) {
      const landing = await b.get(link);
      expect(landing.statusCode).toBe(200);
      expect(landing.body).toContain(`action="${h.authBase}/magic-link"`);
      expect(landing.headers['cache-control']).toBe('no-store');
    }
    const done = await b.post('/magic-link');
    expect(done.statusCode).toBe(303);
    expect(setCookies(done).map((c) => c.name)).toContain('svc_session');
    const tokens = await h.redeem(InjectBrowser.location(done), web.clientId, verifier);
    expect(decodeJwt(tokens.accessToken)).toMatchObject({ sub: user.id });
    expect(decodeJwt(tokens.idToken ?? '')).toMatchObject({ amr: ['email'] });
    await b.get(link);
    const replay = await b.post('/magic-link');
    expect(replay.statusCode).toBe(400);
    expect(replay.body).toContain(LINK_INVALID);
  });

  it('a link opened in another browser gets its own page and is not used up; the asking browser still completes', async () => {
    const user = await h.given.user();
    const { b, link } = await linkSent(user);
    const other = new InjectBrowser(h);
    await other.get(link);
    const refused = await other.post('/magic-link');
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain(OTHER_BROWSER);
    expect(setCookies(refused).map((c) => c.name)).not.toContain('svc_session');
    await b.get(link);
    expect(code(await b.post('/magic-link'))).toBeTruthy();
  });

  it('an expired, unknown or malformed link gets the one "no longer valid" page; "send a new link" sends one that works', async () => {
    const user = await h.given.user();
    const { b, link } = await linkSent(user);
    const requestId = b.fields.request_id ?? '';
    h.t.clock.advance(15 * MINUTE_MS);
    await b.get(link);
    const expired = await b.post('/magic-link');
    expect(expired.statusCode).toBe(400);
    expect(expired.body).toContain(LINK_INVALID);
    for (const query of ['', '?token=', '?token=%00', '?token=a&token=b']) {
      const response = await b.get(`${h.authBase}/magic-link${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.body).toContain(LINK_INVALID);
    }
    await b.get(link);
    const unknown = await b.post('/magic-link', { token: 'unknown-token' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain(LINK_INVALID);

    await b.get(`${h.authBase}/login?request_id=${requestId}`);
    const resent = await b.follow(await b.post('/login/magic-link/resend'));
    expect(resent.body).toContain('Check your email');
    const fresh = linkIn((await mailTo(user.email, 1)).text);
    expect(fresh).not.toBe(link);
    await b.get(fresh);
    expect(code(await b.post('/magic-link'))).toBeTruthy();
  });

  it('a direct link (from RequestMagicLinkAsync) is handed on unused to its client, whose backend completes it; a hosted link is no direct link', async () => {
    const user = await h.given.user();
    await h.t.svc.auth.requestMagicLinkAsync({ email: user.email, clientId: web.clientId });
    const link = linkIn((await mailTo(user.email)).text);
    const b = new InjectBrowser(h);
    await b.get(link);
    const handed = await b.post('/magic-link');
    expect(handed.statusCode).toBe(303);
    const location = InjectBrowser.location(handed);
    expect(`${location.origin}${location.pathname}`).toBe(CLIENT_REDIRECT_URI);
    const token = location.searchParams.get('magic_link_token') ?? '';
    expect(new URL(link).searchParams.get('token')).toBe(token);
    expect(setCookies(handed).map((c) => c.name)).not.toContain('svc_session');
    const result = await h.t.svc.auth.completeMagicLinkAsync({ token, clientId: web.clientId });
    expect(result.tokens?.clientId).toBe(web.clientId);

    h.t.clock.advance(31_000); // past the 30-second resend gate of the address
    const hosted = await linkSent(user);
    const hostedToken = new URL(hosted.link).searchParams.get('token') ?? '';
    await expect(
      h.t.svc.auth.completeMagicLinkAsync({ token: hostedToken, clientId: web.clientId }),
    ).rejects.toMatchObject({ error: 'invalid_token' });
    await hosted.b.get(hosted.link);
    expect(code(await hosted.b.post('/magic-link'))).toBeTruthy();
  });
});

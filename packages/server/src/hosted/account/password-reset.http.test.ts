import type { SvcCreatedClient } from '@svc/contract';
import type { LightMyRequestResponse } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { MINUTE_MS } from '../../kernel/clock.js';
import { authorizeQuery, pkcePair } from '../../test-support/authorize-params.js';
import { describeAboveStorage } from '../../test-support/databases.js';
import {
  createMailedHostedTestApp,
  HOSTED_PASSWORD,
  uniqueName,
  type MailedHostedTestApp,
} from '../../test-support/hosted-test-app.js';
import { InjectBrowser, setCookies } from '../../test-support/inject-browser.js';
import { linkIn } from '../../test-support/outbox.js';
import { HOSTED_MESSAGES } from '../form.js';
import { PASSWORD_RESET_MESSAGES } from '../pages/password-reset-page.js';

const NEW_PASSWORD = 'a brand new passphrase';

describeAboveStorage('hosted password reset pages', (kind) => {
  let h: MailedHostedTestApp;
  let web: SvcCreatedClient;

  beforeAll(async () => {
    h = await createMailedHostedTestApp(kind);
    web = await h.given.client();
  });
  afterAll(async () => {
    await h?.close();
  });
  // Past every reset rate-limit window (per address and per IP), so that tests do not throttle each other.
  beforeEach(() => {
    h.t.clock.advance(61 * MINUTE_MS);
  });

  /** The reset link of the last email to `address`. */
  const resetLink = (address: string) => new URL(linkIn(h.smtp.to(address).at(-1)?.text ?? null));

  /** A browser that opened the forgot-password page, standing alone (no authorization request). */
  async function atForgot(): Promise<InjectBrowser> {
    const b = new InjectBrowser(h);
    const page = await b.get(`${h.authBase}/password/forgot`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`action="${h.authBase}/password/forgot/submit"`);
    return b;
  }

  /** Asks for a reset link for `address` through the form; returns the post's answer. */
  async function forgot(address: string): Promise<LightMyRequestResponse> {
    return (await atForgot()).post('/password/forgot/submit', { email: address });
  }

  it('"Check your email" is byte-identical for a known, unknown and passwordless address; only the known one gets mail', async () => {
    const known = await h.given.user();
    const passwordless = await h.t.svc.admin.createUserAsync({
      displayName: 'No Password',
      email: `${uniqueName('nopw')}@example.com`,
      password: null,
    });
    const addresses = [known.email, `${uniqueName('nobody')}@example.com`, passwordless.email ?? ''];
    const answers: { post: LightMyRequestResponse; page: LightMyRequestResponse }[] = [];
    for (const address of addresses) {
      const b = await atForgot();
      const post = await b.post('/password/forgot/submit', { email: address });
      answers.push({ post, page: await b.follow(post) });
    }
    const [first, ...rest] = answers;
    expect(first?.post.statusCode).toBe(303);
    expect(first?.post.headers.location).toBe(`${h.authBase}/password/forgot/submit`);
    expect(first?.page.statusCode).toBe(200);
    expect(first?.page.body).toContain('Check your email');
    for (const answer of rest) {
      expect(answer.post.statusCode).toBe(first?.post.statusCode);
      expect(answer.post.headers.location).toBe(first?.post.headers.location);
      expect(answer.post.body).toBe(first?.post.body);
      expect(setCookies(answer.post)).toEqual([]);
      expect(answer.page.body).toBe(first?.page.body);
    }
    expect(h.smtp.to(known.email)).toHaveLength(1);
    expect(h.smtp.to(addresses[1] ?? '')).toEqual([]);
    expect(h.smtp.to(passwordless.email ?? '')).toEqual([]);
  });

  it('asking again at once says so (429, when to ask again) alike for a known and an unknown address, and sends nothing', async () => {
    const known = await h.given.user();
    const unknown = `${uniqueName('nobody')}@example.com`;
    const refusals: string[] = [];
    for (const address of [known.email, unknown]) {
      expect((await forgot(address)).statusCode).toBe(303);
      h.t.clock.advance(15_000);
      const again = await forgot(address);
      expect(again.statusCode).toBe(429);
      expect(again.headers['retry-after']).toBe('45');
      expect(again.body).not.toContain('Check your email');
      refusals.push(again.body.replaceAll(address, 'ADDRESS').replace(/name="_csrf" value="[^"]*"/, ''));
    }
    expect(refusals[0]).toContain(
      'It is too soon to send another message, so nothing was sent. You can ask again in 45 seconds.',
    );
    expect(refusals[0]).toMatch(/id="email"[^>]*value="ADDRESS"/s);
    expect(refusals[1]).toBe(refusals[0]);
    expect(h.smtp.to(known.email)).toHaveLength(1);
    expect(await h.auditEvents('password_reset.rate_limited')).toHaveLength(2);
    h.t.clock.advance(45_000);
    expect((await forgot(known.email)).statusCode).toBe(303);
    expect(h.smtp.to(known.email)).toHaveLength(2);
  });

  it('an empty or malformed address comes back with an inline error and sends nothing', async () => {
    const before = h.smtp.messages.length;
    const b = await atForgot();
    const empty = await b.post('/password/forgot/submit', { email: ' ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain(HOSTED_MESSAGES.emailRequired);
    const malformed = await b.post('/password/forgot/submit', { email: 'not-an-email' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.body).toContain(HOSTED_MESSAGES.emailInvalid);
    expect(malformed.body).toMatch(/id="email"[^>]*value="not-an-email"/s);
    expect(h.smtp.messages).toHaveLength(before);
  });

  it('from the password step: prefilled, audited with the client, and the mailed link leads back to that sign-in with the new password', async () => {
    const user = await h.given.user();
    const b = new InjectBrowser(h);
    const { verifier, challenge } = pkcePair();
    await b.follow(await b.authorize(authorizeQuery(web.clientId, { scope: 'openid' }, challenge)));
    await b.follow(await b.post('/login/identify', { email: user.email }));
    const requestId = b.fields.request_id ?? '';
    expect(b.linkHref('Forgot password?')).toBe(`${h.authBase}/password/forgot?request_id=${requestId}`);

    const form = await b.click('Forgot password?');
    expect(form.body).toMatch(new RegExp(`id="email"[^>]*value="${user.email}"`, 's'));
    expect(form.body).toContain(`href="${h.authBase}/login?request_id=${requestId}">Back to sign in`);
    expect(b.fields.request_id).toBe(requestId);
    const sent = await b.post('/password/forgot/submit', { email: user.email });
    expect(sent.headers.location).toBe(`${h.authBase}/password/forgot/submit?request_id=${requestId}`);
    expect((await b.follow(sent)).body).toContain('Back to sign in');
    expect((await h.auditEvents('password_reset.requested')).at(-1)).toMatchObject({
      clientId: web.clientId,
      userId: user.id,
    });

    const link = resetLink(user.email);
    expect(`${link.origin}${link.pathname}`).toBe(`http://localhost:8080${h.authBase}/password/reset`);
    expect(link.searchParams.get('request_id')).toBe(requestId);
    const reset = await b.get(link.toString());
    expect(reset.statusCode).toBe(200);
    expect(b.fields).toMatchObject({ request_id: requestId, token: link.searchParams.get('token') });
    const changed = await b.post('/password/reset/submit', {
      new_password: NEW_PASSWORD,
      confirm_password: NEW_PASSWORD,
    });
    expect(changed.headers.location).toBe(`${h.authBase}/password/reset/submit?request_id=${requestId}`);
    const done = await b.follow(changed);
    expect(done.body).toContain('Password changed');
    // No automatic sign-in: the page leads to the request's password step.
    expect(setCookies(changed).map((c) => c.name)).not.toContain('svc_session');
    expect(b.linkHref('Sign in')).toBe(`${h.authBase}/login?request_id=${requestId}`);
    const again = await b.click('Sign in');
    expect(again.body).toContain('Enter your password');
    const old = await b.post('/login/password', { password: HOSTED_PASSWORD });
    expect(old.statusCode).toBe(400);
    const signedIn = await b.post('/login/password', { password: NEW_PASSWORD });
    const tokens = await h.redeem(InjectBrowser.location(signedIn), web.clientId, verifier);
    expect(decodeJwt(tokens.idToken ?? '').sub).toBe(user.id);
  });

  it('a reset link: opening it never uses it; weak or mismatched passwords come back with 400; used, unknown and expired links are no longer valid', async () => {
    const user = await h.given.user();
    const b = new InjectBrowser(h);
    await forgot(user.email);
    const link = resetLink(user.email);
    expect(link.searchParams.has('request_id')).toBe(false);
    for (let i = 0; i < 2; i += 1) {
      const page = await b.get(link.toString());
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Choose a new password');
    }
    for (const [fields, message] of [
      [{ new_password: '', confirm_password: '' }, PASSWORD_RESET_MESSAGES.newPasswordRequired],
      [{ new_password: 'short', confirm_password: 'short' }, PASSWORD_RESET_MESSAGES.length],
      [
        { new_password: NEW_PASSWORD, confirm_password: `${NEW_PASSWORD}!` },
        PASSWORD_RESET_MESSAGES.mismatch,
      ],
    ] as const) {
      const response = await b.post('/password/reset/submit', fields);
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain(message);
      expect(b.fields.token).toBe(link.searchParams.get('token'));
    }
    expect(
      await h.t.svc.authEngine.passwords.authenticate(user.email, HOSTED_PASSWORD, { operation: 'test' }),
    ).toMatchObject({
      ok: true,
    });
    const changed = await b.post('/password/reset/submit', {
      new_password: NEW_PASSWORD,
      confirm_password: NEW_PASSWORD,
    });
    expect(changed.headers.location).toBe(`${h.authBase}/password/reset/submit`);
    const done = await b.follow(changed);
    expect(done.body).toContain('Go back to the application you were using');
    expect(
      await h.t.svc.authEngine.passwords.authenticate(user.email, NEW_PASSWORD, { operation: 'test' }),
    ).toMatchObject({
      ok: true,
    });

    const invalid = async (response: LightMyRequestResponse) => {
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain('This reset link is no longer valid');
      expect(response.body).toContain(`href="${h.authBase}/password/forgot">Get a new link`);
    };
    await invalid(await b.get(link.toString()));
    const used = new InjectBrowser(h);
    await used.get(`${h.authBase}/password/forgot`);
    await invalid(
      await used.post('/password/reset/submit', {
        token: link.searchParams.get('token') ?? '',
        new_password: 'yet another passphrase',
        confirm_password: 'yet another passphrase',
      }),
    );
    await invalid(await b.get(`${h.authBase}/password/reset?token=unknown-token`));
    await invalid(await b.get(`${h.authBase}/password/reset`));

    h.t.clock.advance(2 * MINUTE_MS);
    await forgot(user.email);
    const expiring = resetLink(user.email);
    h.t.clock.advance(31 * MINUTE_MS);
    await invalid(await b.get(expiring.toString()));
  });

  it('a reset ends every session of the account: the issuer session and the tokens', async () => {
    const user = await h.given.user();
    const b = new InjectBrowser(h);
    const signedIn = await b.signIn(
      await b.authorize(authorizeQuery(web.clientId)),
      user.email,
      HOSTED_PASSWORD,
    );
    expect(InjectBrowser.location(signedIn).searchParams.get('code')).toBeTruthy();
    const cookie = b.cookies.get('svc_session');
    const { svc } = h.t;
    expect(await svc.authEngine.browserSessions.resolve(cookie)).not.toBeNull();
    const tokens = await svc.auth.createSessionTokensForUserAsync(
      user.id,
      web.clientId,
      null,
      'pwd',
      null,
      null,
    );

    await forgot(user.email);
    await b.get(resetLink(user.email).toString());
    await b.post('/password/reset/submit', { new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD });

    expect(await svc.authEngine.browserSessions.resolve(cookie)).toBeNull();
    expect(await svc.authEngine.tokens.revocation.activeSession(tokens.refreshToken ?? '')).toBeUndefined();
    // The next authorization in this browser asks for a sign-in again.
    const next = await b.follow(await b.authorize(authorizeQuery(web.clientId)));
    expect(next.body).toContain(`action="${h.authBase}/login/identify"`);
  });

  it('antiforgery: a post without the token or from another origin is refused before anything runs', async () => {
    const user = await h.given.user();
    const before = h.smtp.messages.length;
    const b = await atForgot();
    for (const options of [
      { withoutToken: true },
      { origin: 'https://evil.example.com' },
      { origin: null },
    ]) {
      const response = await b.post('/password/forgot/submit', { email: user.email }, options);
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain('This form has expired');
    }
    expect(h.smtp.messages).toHaveLength(before);

    await forgot(user.email);
    await b.get(resetLink(user.email).toString());
    const forged = await b.post(
      '/password/reset/submit',
      { new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD },
      { withoutToken: true },
    );
    expect(forged.statusCode).toBe(400);
    expect(forged.body).toContain('This form has expired');
    expect(
      await h.t.svc.authEngine.passwords.authenticate(user.email, HOSTED_PASSWORD, { operation: 'test' }),
    ).toMatchObject({
      ok: true,
    });
    // The link is still live.
    expect((await b.get(resetLink(user.email).toString())).statusCode).toBe(200);
  });

  it('the direct JSON helpers keep POST /password/forgot and POST /password/reset', async () => {
    const user = await h.given.user();
    const json = (path: string, body: object) =>
      h.inject({
        method: 'POST',
        url: `${h.authBase}${path}`,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
    const forgotten = await json('/password/forgot', { email: user.email });
    expect(forgotten.statusCode).toBe(200);
    expect(forgotten.json()).toMatchObject({ maskedEmail: expect.stringContaining('***@example.com') });
    const token = resetLink(user.email).searchParams.get('token') ?? '';
    expect((await json('/password/reset', { token, newPassword: NEW_PASSWORD })).statusCode).toBe(204);
  });
});

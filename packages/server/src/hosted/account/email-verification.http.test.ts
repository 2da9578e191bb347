import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { MINUTE_MS } from '../../kernel/clock.js';
import { emailVerifiedOf } from '../../test-support/account-harness.js';
import { describeAboveStorage } from '../../test-support/databases.js';
import { createMailedHostedTestApp, type MailedHostedTestApp } from '../../test-support/hosted-test-app.js';
import { InjectBrowser, setCookies, type PostOptions } from '../../test-support/inject-browser.js';
import { linkIn } from '../../test-support/outbox.js';
import { ANTIFORGERY_COOKIE, ANTIFORGERY_FIELD, ANTIFORGERY_LIFETIME_MS } from '../../http/antiforgery.js';

const REFUSED = 'This form has expired';

describeAboveStorage('hosted email verification page', (kind) => {
  let h: MailedHostedTestApp;

  beforeAll(async () => {
    h = await createMailedHostedTestApp(kind);
  });
  afterAll(async () => {
    await h?.close();
  });
  // Past the per-address and per-IP send limits, so that tests do not throttle each other.
  beforeEach(() => {
    h.t.clock.advance(61 * MINUTE_MS);
  });

  const verified = (userId: string) => emailVerifiedOf(h.t, userId);

  /** A user with a verification link mailed to them: the link as the browser opens it. */
  async function userWithLink() {
    const user = await h.given.user();
    await h.t.svc.account.createEmailVerificationToken({ email: user.email });
    return { user, link: linkIn(h.smtp.to(user.email).at(-1)?.text ?? null) };
  }

  it('the link opens a page with an antiforgery field and cookie that uses nothing; its button verifies once', async () => {
    const { user, link } = await userWithLink();
    const b = new InjectBrowser(h);
    for (let i = 0; i < 2; i += 1) {
      const page = await b.get(link);
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.headers['content-security-policy']).toContain("default-src 'none'");
      // same-origin, not no-referrer: under no-referrer the form post would carry `Origin: null`.
      expect(page.headers['referrer-policy']).toBe('same-origin');
      expect(page.body).toContain(`action="${h.authBase}/email/verify/confirm"`);
      if (i === 0) expect(setCookies(page).map((c) => c.name)).toContain(ANTIFORGERY_COOKIE);
      expect(b.fields[ANTIFORGERY_FIELD]).toMatch(/^\d+\.[\w-]{43}$/);
    }
    expect(await verified(user.id)).toBe(0);

    const first = await b.post('/email/verify/confirm');
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('Email verified');
    expect(await verified(user.id)).toBe(1);
    await b.get(link);
    const second = await b.post('/email/verify/confirm');
    expect(second.statusCode).toBe(400);
    expect(second.body).toContain('Link not valid');
  });

  it('refuses a confirm without the field, forged, from another browser or origin, or expired: 400, nothing verified', async () => {
    const { user, link } = await userWithLink();
    const b = new InjectBrowser(h);
    const other = new InjectBrowser(h);
    await other.get(link);
    /** Opens the page afresh (a refusal replaces it), then posts its form with `fields` over its own. */
    const confirm = async (fields: Record<string, string> = {}, options: PostOptions = {}) => {
      await b.get(link);
      return b.post('/email/verify/confirm', fields, options);
    };
    const refused = [
      await confirm({}, { withoutToken: true }),
      await confirm({ [ANTIFORGERY_FIELD]: `${h.t.clock.now()}.${'A'.repeat(43)}` }),
      await confirm({}, { origin: 'https://evil.example.com' }),
      await confirm({}, { origin: null }),
      // b's field with other's cookie: the token belongs to b's browser only.
      await other.post('/email/verify/confirm', { [ANTIFORGERY_FIELD]: b.fields[ANTIFORGERY_FIELD] ?? '' }),
    ];
    // The page's fields without any cookie.
    await b.get(link);
    refused.push(
      await h.inject({
        method: 'POST',
        url: `${h.authBase}/email/verify/confirm`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(link).origin },
        payload: new URLSearchParams(b.fields).toString(),
      }),
    );
    await b.get(link);
    h.t.clock.advance(ANTIFORGERY_LIFETIME_MS + 1);
    refused.push(await b.post('/email/verify/confirm'));
    for (const response of refused) {
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain(REFUSED);
    }
    expect(await verified(user.id)).toBe(0);

    // The link is still live: a fresh page's button verifies.
    expect((await confirm()).statusCode).toBe(200);
    expect(await verified(user.id)).toBe(1);
  });

  it('answers malformed links and forms with 4xx, never 5xx', async () => {
    const { link } = await userWithLink();
    const b = new InjectBrowser(h);
    for (const url of ['/email/verify', '/email/verify?token=', '/email/verify?token=a&token=b']) {
      const response = await b.get(`${h.authBase}${url}`);
      expect(response.statusCode, url).toBe(400);
      expect(response.body).toContain('Link not valid');
    }
    for (const token of ['', 'unknown', 'x'.repeat(600)]) {
      await b.get(link);
      const response = await b.post('/email/verify/confirm', { token });
      expect(response.statusCode, token).toBe(400);
      expect(response.body).toContain('Link not valid');
    }
    const cookie = [...b.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    for (const [type, payload] of [
      ['application/x-www-form-urlencoded', `${ANTIFORGERY_FIELD}=%zz`],
      ['application/json', '{}'],
      ['text/plain', 'token=x'],
    ] as const) {
      const response = await h.inject({
        method: 'POST',
        url: `${h.authBase}/email/verify/confirm`,
        headers: { 'content-type': type, origin: new URL(link).origin, cookie },
        payload,
      });
      expect(response.statusCode, type).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, type).toBeLessThan(500);
    }
  });
});

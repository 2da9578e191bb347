import type { SvcCreatedClient } from '@svc/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { HOUR_MS } from '../../kernel/clock.js';
import { phoneOtpRepository } from '../../storage/repositories/phone-otp.js';
import { authorizeQuery } from '../../test-support/authorize-params.js';
import { describeAboveStorage } from '../../test-support/databases.js';
import { FakeSmsProvider } from '../../test-support/fake-sms-provider.js';
import {
  createMailedHostedTestApp,
  uniqueName,
  type MailedHostedTestApp,
} from '../../test-support/hosted-test-app.js';
import { InjectBrowser } from '../../test-support/inject-browser.js';

const refusedIn = (seconds: number) =>
  `It is too soon to send another message, so nothing was sent. You can ask again in ${seconds} seconds.`;

/**
 * docs/reference/errors.md "Refusals" on the hosted pages: a send the resend delay refused is the
 * page again (429, Retry-After) saying that nothing was sent and when a new one may be asked for (the
 * form says nothing of an email or text; a page that waits for an earlier one still speaks of that one);
 * the pages that wait for a code or link say when a new one may be sent. Known and unknown addresses
 * and numbers get the same page.
 */
describeAboveStorage('a refused send says so: hosted pages', (kind) => {
  let h: MailedHostedTestApp;
  let fake: FakeSmsProvider;
  let web: SvcCreatedClient;

  beforeAll(async () => {
    fake = await FakeSmsProvider.start({ clock: { now: () => h.t.clock.now() } });
    h = await createMailedHostedTestApp(kind, { sms: fake.config() });
    web = await h.given.client();
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });
  // Past every send window (per address and per IP), so that tests do not throttle each other.
  beforeEach(() => {
    h.t.clock.advance(HOUR_MS + 1000);
  });

  /** A browser at a new request's page `path` (`/login/email-otp`, `/login/phone-otp`, `/signup/phone-otp`). */
  async function at(path: string): Promise<InjectBrowser> {
    const b = new InjectBrowser(h);
    await b.follow(await b.authorize(authorizeQuery(web.clientId)));
    const page = await b.get(`${h.authBase}${path}?request_id=${b.fields.request_id ?? ''}`);
    expect(page.statusCode).toBe(200);
    return b;
  }

  /** A refused start: 429 with Retry-After; the page with what differs between requests blanked. */
  function refused(
    b: InjectBrowser,
    response: LightMyRequestResponse,
    seconds: number,
    typed: string,
  ): string {
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBe(String(seconds));
    expect(response.body).toContain(refusedIn(seconds));
    return response.body
      .replaceAll(b.fields.request_id ?? 'none', 'REQUEST')
      .replace(/name="_csrf" value="[^"]*"/g, '')
      .replaceAll(typed, 'TYPED');
  }

  it('an email code asked for right after a signup code: the email page again, saying when, alike for a known and a new address; after 30 s the code is sent', async () => {
    const known = await h.given.user();
    const fresh = `${uniqueName('fresh')}@example.com`;
    const pages: string[] = [];
    for (const email of [fresh, known.email]) {
      await h.t.svc.auth.requestEmailOtpSignupAsync({ displayName: 'New', email, clientId: web.clientId });
      const b = await at('/login/email-otp');
      const response = await b.post('/login/email-otp/start', { email });
      expect(response.body).toContain(`action="${h.authBase}/login/email-otp/start"`);
      expect(response.body).toMatch(new RegExp(`id="email"[^>]*value="${email}"`, 's'));
      expect(response.body).not.toContain('we emailed');
      pages.push(refused(b, response, 30, email));
    }
    expect(pages[1]).toBe(pages[0]);
    expect(h.smtp.to(known.email)).toEqual([]);

    h.t.clock.advance(30_000);
    const b = await at('/login/email-otp');
    const step = await b.follow(await b.post('/login/email-otp/start', { email: known.email }));
    expect(step.statusCode).toBe(200);
    expect(step.body).toContain('we emailed it a 6-digit code');
    expect(step.body).toContain('You can ask for a new code in 30 seconds.');
    expect(h.smtp.to(known.email)).toHaveLength(1);
    // Once the delay has passed the page no longer says when.
    h.t.clock.advance(30_000);
    expect((await b.get(`${h.authBase}/login?request_id=${b.fields.request_id ?? ''}`)).body).not.toContain(
      'You can ask for a new code',
    );
  });

  it('"Send a new link" at once: the check-your-email page again, saying when, alike for a known and an unknown address; no second link', async () => {
    const known = await h.given.user();
    const unknown = `${uniqueName('nobody')}@example.com`;
    const browsers: [InjectBrowser, string][] = [];
    for (const email of [known.email, unknown]) {
      const b = await at('/login/email-otp');
      const sent = await b.follow(await b.post('/login/magic-link/start', { email }));
      expect(sent.body).toContain('You can ask for a new link in 30 seconds.');
      browsers.push([b, email]);
    }
    h.t.clock.advance(10_000);
    const pages: string[] = [];
    for (const [b, email] of browsers) {
      const response = await b.post('/login/magic-link/resend');
      expect(response.body).toContain(`action="${h.authBase}/login/magic-link/resend"`);
      expect(response.body).not.toContain('You can ask for a new link');
      pages.push(refused(b, response, 20, email.replace(/^(.).*@/, '$1***@')));
    }
    expect(pages[1]).toBe(pages[0]);
    expect(h.smtp.to(known.email)).toHaveLength(1);
  });

  it('a text code asked for right after a signup code: the number form again without calling the provider, alike for a known and a new number; after 30 s it is texted', async () => {
    const user = await h.given.user();
    const [known, fresh] = ['+12015550791', '+12015550792'];
    await phoneOtpRepository(h.t.svc.database.db).setUserPhone(user.id, known ?? '', h.t.clock.now());
    const pages: string[] = [];
    for (const number of [fresh ?? '', known ?? '']) {
      const signup = await at('/signup/phone-otp');
      await signup.follow(
        await signup.post('/signup/phone-otp/start', { display_name: 'New', phone_number: number }),
      );
      const b = await at('/login/phone-otp');
      const calls = fake.requests.length;
      const response = await b.post('/login/phone-otp/start', { phone_number: number });
      expect(fake.requests).toHaveLength(calls);
      expect(response.body).toContain(`action="${h.authBase}/login/phone-otp/start"`);
      expect(response.body).not.toContain('we texted');
      pages.push(refused(b, response, 30, number));
    }
    expect(pages[1]).toBe(pages[0]);
    expect(fake.sent.filter((sms) => sms.to === known)).toEqual([]);

    h.t.clock.advance(30_000);
    const b = await at('/login/phone-otp');
    const step = await b.follow(await b.post('/login/phone-otp/start', { phone_number: known ?? '' }));
    expect(step.body).toContain('we texted it a 6-digit code');
    expect(step.body).toContain('You can ask for a new code in 30 seconds.');
    expect(fake.sent.filter((sms) => sms.to === known)).toHaveLength(1);
  });
});

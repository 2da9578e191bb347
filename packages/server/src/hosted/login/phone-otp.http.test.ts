import type { SvcCreatedClient } from '@svc/contract';
import type { LightMyRequestResponse } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phoneOtpRepository } from '../../storage/repositories/phone-otp.js';
import { authorizeQuery, pkcePair } from '../../test-support/authorize-params.js';
import { describeAboveStorage } from '../../test-support/databases.js';
import { FakeSmsProvider } from '../../test-support/fake-sms-provider.js';
import { createHostedTestApp, type HostedTestApp } from '../../test-support/hosted-test-app.js';
import { InjectBrowser, setCookies } from '../../test-support/inject-browser.js';
import { HOSTED_MESSAGES } from '../form.js';

/** Distinct valid US numbers (201-555-03xx), so tests sharing one Svc never share a rate-limit key. */
let line = 300;
const nextNumber = () => {
  line += 1;
  return { national: `(201) 555-0${line}`, e164: `+12015550${line}` };
};

/** A page with what differs between two requests (ids, tokens, the number's last digits) blanked. */
function normalized(body: string, b: InjectBrowser, e164: string): string {
  return body
    .replaceAll(b.fields.request_id ?? 'no-request', 'REQUEST')
    .replace(/name="_csrf" value="[^"]*"/g, 'name="_csrf" value=""')
    .replaceAll(e164.slice(-4), 'XXXX');
}

describeAboveStorage('hosted phone sign-in', (kind) => {
  let h: HostedTestApp;
  let fake: FakeSmsProvider;
  let web: SvcCreatedClient;

  beforeAll(async () => {
    // The provider's verifications expire on the service's fake clock too.
    fake = await FakeSmsProvider.start({ clock: { now: () => h.t.clock.now() } });
    h = await createHostedTestApp(kind, { sms: fake.config() });
    web = await h.given.client();
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });

  async function phoneUser(e164: string): Promise<string> {
    const user = await h.given.user();
    await phoneOtpRepository(h.t.svc.database.db).setUserPhone(user.id, e164, h.t.clock.now());
    return user.id;
  }

  /** A browser at GET /login/phone-otp of a new request (with the PKCE verifier to redeem its code). */
  async function atPhoneForm(client = web) {
    const b = new InjectBrowser(h);
    const { verifier, challenge } = pkcePair();
    await b.follow(await b.authorize(authorizeQuery(client.clientId, { scope: 'openid' }, challenge)));
    const form = await b.click('Text me a sign-in code');
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain(`action="${h.authBase}/login/phone-otp/start"`);
    return { b, verifier };
  }

  const textsTo = (e164: string) => fake.sent.filter((sms) => sms.to === e164);

  it('texts a code to a known number, the enter-code step takes it, and the client gets a code for the user (amr sms)', async () => {
    const number = nextNumber();
    const userId = await phoneUser(number.e164);
    const { b, verifier } = await atPhoneForm();
    const started = await b.post('/login/phone-otp/start', { phone_number: number.national });
    expect(started.statusCode).toBe(303);
    const next = InjectBrowser.location(started);
    expect(`${next.pathname}?${next.searchParams.toString()}`).toBe(
      `${h.authBase}/login?request_id=${b.fields.request_id}`,
    );
    const enterCode = await b.follow(started);
    expect(enterCode.statusCode).toBe(200);
    expect(enterCode.body).toContain(`action="${h.authBase}/login/phone-otp/verify"`);
    expect(enterCode.body).toContain(`+1 ••• ••• ${number.e164.slice(-4)}`);
    expect(textsTo(number.e164)).toHaveLength(1);
    // The challenge token is nowhere in the page: the request holds its hash.
    expect(enterCode.body).not.toMatch(/challenge/i);

    const done = await b.post('/login/phone-otp/verify', { code: ` ${fake.lastCode(number.e164) ?? ''} ` });
    expect(done.statusCode).toBe(303);
    expect(setCookies(done).map((cookie) => cookie.name)).toContain('svc_session');
    const tokens = await h.redeem(InjectBrowser.location(done), web.clientId, verifier);
    expect(decodeJwt(tokens.idToken ?? '')).toMatchObject({ sub: userId, amr: ['sms'] });
    const user = await h.t.svc.database.db
      .selectFrom('users')
      .select('phoneVerified')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(Number(user.phoneVerified)).toBe(1);
    expect(await h.auditEvents('oauth.hosted_login.succeeded')).toContainEqual(
      expect.objectContaining({
        userId,
        clientId: web.clientId,
        dataJson: expect.stringContaining('phone_otp'),
      }),
    );
  });

  it('an unknown number gets byte-identical pages, no text, and never verifies', async () => {
    const known = nextNumber();
    const unknown = nextNumber();
    await phoneUser(known.e164);
    const pages: string[] = [];
    const wrongCodePages: string[] = [];
    for (const number of [known, unknown]) {
      const { b } = await atPhoneForm();
      const started = await b.post('/login/phone-otp/start', { phone_number: number.e164 });
      const location = InjectBrowser.location(started);
      pages.push(`${started.statusCode} ${location.pathname} ${started.body}`);
      const enterCode = await b.follow(started);
      pages.push(normalized(enterCode.body, b, number.e164));
      const wrong = await b.post('/login/phone-otp/verify', { code: '000000' });
      expect(wrong.statusCode).toBe(400);
      wrongCodePages.push(normalized(wrong.body, b, number.e164));
    }
    expect(pages[2]).toBe(pages[0]);
    expect(pages[3]).toBe(pages[1]);
    expect(wrongCodePages[1]).toBe(wrongCodePages[0]);
    expect(wrongCodePages[0]).toContain(HOSTED_MESSAGES.codeInvalid);
    expect(textsTo(unknown.e164)).toHaveLength(0);
  });

  it('a wrong code shows the step again (400); five wrong codes spend the challenge; a new code works', async () => {
    const number = nextNumber();
    const userId = await phoneUser(number.e164);
    const { b, verifier } = await atPhoneForm();
    await b.follow(await b.post('/login/phone-otp/start', { phone_number: number.e164 }));
    const code = fake.lastCode(number.e164) ?? '';
    const wrong = code === '000000' ? '111111' : '000000';
    const malformed = await b.post('/login/phone-otp/verify', { code: 'abc' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.body).toContain(HOSTED_MESSAGES.codeInvalid);
    for (let i = 0; i < 5; i += 1) {
      const response = await b.post('/login/phone-otp/verify', { code: wrong });
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain(HOSTED_MESSAGES.codeInvalid);
      expect(response.body).toContain(`action="${h.authBase}/login/phone-otp/verify"`);
    }
    const spent = await b.post('/login/phone-otp/verify', { code });
    expect(spent.statusCode).toBe(400);
    expect(setCookies(spent).map((cookie) => cookie.name)).not.toContain('svc_session');

    // "Send a new code": the number form again, prefilled, and a fresh challenge (once the provider's
    // verification, which counted the same five wrong checks, has expired).
    const again = await b.get(`${h.authBase}/login/phone-otp?request_id=${b.fields.request_id}`);
    expect(again.body).toMatch(new RegExp(`id="phone_number"[^>]*value="\\${number.e164}"`, 's'));
    h.t.clock.advance(10 * 60_000);
    await b.follow(await b.post('/login/phone-otp/start', { phone_number: number.e164 }));
    const done = await b.post('/login/phone-otp/verify', { code: fake.lastCode(number.e164) ?? '' });
    expect(done.statusCode).toBe(303);
    const tokens = await h.redeem(InjectBrowser.location(done), web.clientId, verifier);
    expect(decodeJwt(tokens.idToken ?? '').sub).toBe(userId);
  });

  it('a challenge expires after ten minutes', async () => {
    const number = nextNumber();
    await phoneUser(number.e164);
    const { b } = await atPhoneForm();
    await b.follow(await b.post('/login/phone-otp/start', { phone_number: number.e164 }));
    h.t.clock.advance(10 * 60_000);
    const late = await b.post('/login/phone-otp/verify', { code: fake.lastCode(number.e164) ?? '' });
    expect(late.statusCode).toBe(400);
    expect(late.body).toContain(HOSTED_MESSAGES.codeInvalid);
  });

  it('an empty or invalid number comes back with an inline error and the typed value', async () => {
    const { b } = await atPhoneForm();
    const empty = await b.post('/login/phone-otp/start', { phone_number: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain(HOSTED_MESSAGES.phoneRequired);
    for (const typed of ['call me', '+999 123 456 789', '555']) {
      const response = await b.post('/login/phone-otp/start', { phone_number: typed });
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain(HOSTED_MESSAGES.phoneInvalid);
      expect(response.body).toMatch(/id="phone_number"[^>]*aria-invalid="true"/s);
      expect(response.body).toContain(`value="${typed}"`);
    }
  });

  it('a provider failure brings the form back with a plain error', async () => {
    const number = nextNumber();
    await phoneUser(number.e164);
    const { b } = await atPhoneForm();
    fake.failNext(503);
    const response = await b.post('/login/phone-otp/start', { phone_number: number.e164 });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain(HOSTED_MESSAGES.smsUnavailable);
  });

  it('antiforgery: posts without the token or from another origin are refused before anything is texted or checked', async () => {
    const number = nextNumber();
    await phoneUser(number.e164);
    const { b } = await atPhoneForm();
    const form = `${h.authBase}/login/phone-otp?request_id=${b.fields.request_id}`;
    for (const options of [{ withoutToken: true }, { origin: 'https://evil.example' }]) {
      const response = await b.post('/login/phone-otp/start', { phone_number: number.e164 }, options);
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain('This form has expired');
      await b.get(form);
    }
    expect(textsTo(number.e164)).toHaveLength(0);
    await b.follow(await b.post('/login/phone-otp/start', { phone_number: number.e164 }));
    const refused = await b.post(
      '/login/phone-otp/verify',
      { code: fake.lastCode(number.e164) ?? '' },
      { withoutToken: true },
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('This form has expired');
    const attempts = await h.t.svc.database.db
      .selectFrom('phoneOtpChallenges')
      .select('attempts')
      .where('phoneE164', '=', number.e164)
      .executeTakeFirstOrThrow();
    expect(Number(attempts.attempts)).toBe(0);
  });

  it('a verify for a request that waits for no phone code goes to its current step; an unknown request is refused', async () => {
    const { b } = await atPhoneForm();
    const response = await b.post('/login/phone-otp/verify', { code: '123456' });
    expect(response.statusCode).toBe(303);
    expect(InjectBrowser.location(response).pathname).toBe(`${h.authBase}/login`);
    const unknown = await b.get(`${h.authBase}/login/phone-otp?request_id=azr_unknown`);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('This sign-in has expired');
  });
});

describe('hosted phone sign-in without SMS configuration', () => {
  let h: HostedTestApp;
  let web: SvcCreatedClient;
  beforeAll(async () => {
    h = await createHostedTestApp('sqlite');
    web = await h.given.client();
  });
  afterAll(() => h?.close());

  it('offers no phone link and every phone page says it is not available (404)', async () => {
    const b = new InjectBrowser(h);
    const identify = await b.follow(await b.authorize(authorizeQuery(web.clientId)));
    expect(identify.body).not.toContain('/login/phone-otp');
    expect(identify.body).toContain('Create an account');
    const requestId = b.fields.request_id ?? '';
    const responses: LightMyRequestResponse[] = [
      await b.get(`${h.authBase}/login/phone-otp?request_id=${requestId}`),
      await b.get(`${h.authBase}/signup/phone-otp?request_id=${requestId}`),
    ];
    const signup = await b.get(`${h.authBase}/signup?request_id=${requestId}`);
    expect(signup.body).not.toContain('/signup/phone-otp');
    // Posts carry a valid antiforgery token (from the signup page) and still find nothing to do.
    for (const [path, fields] of [
      ['/login/phone-otp/start', { phone_number: '+12015550123' }],
      ['/signup/phone-otp/start', { display_name: 'A', phone_number: '+12015550123' }],
      ['/login/phone-otp/verify', { code: '123456' }],
      ['/signup/phone-otp/verify', { code: '123456' }],
    ] as const) {
      await b.get(`${h.authBase}/signup?request_id=${requestId}`);
      responses.push(await b.post(path, fields));
    }
    for (const response of responses) {
      expect(response.statusCode).toBe(404);
      expect(response.body).toContain('Phone sign-in is not available');
      expect(response.body).toContain(`href="${h.authBase}/login?request_id=${requestId}"`);
    }
  });
});

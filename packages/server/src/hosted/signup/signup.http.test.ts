import type { SvcCreatedClient } from '@svc/contract';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { requireEmailKey } from '../../directory/email-key.js';
import { phoneOtpRepository } from '../../storage/repositories/phone-otp.js';
import { authorizeQuery, pkcePair } from '../../test-support/authorize-params.js';
import { describeAboveStorage } from '../../test-support/databases.js';
import { FakeSmsProvider } from '../../test-support/fake-sms-provider.js';
import {
  createHostedTestApp,
  HOSTED_PASSWORD,
  uniqueName,
  type HostedTestApp,
} from '../../test-support/hosted-test-app.js';
import { InjectBrowser, setCookies } from '../../test-support/inject-browser.js';
import { HOSTED_MESSAGES } from '../form.js';

/** Distinct valid US numbers (201-555-04xx), so tests sharing one Svc never share a rate-limit key. */
let line = 400;
const nextNumber = () => {
  line += 1;
  return { national: `(201) 555-0${line}`, e164: `+12015550${line}` };
};

const NEW_PASSWORD = 'a new and long password';

describeAboveStorage('hosted signup', (kind) => {
  let h: HostedTestApp;
  let fake: FakeSmsProvider;
  let web: SvcCreatedClient;
  let thirdParty: SvcCreatedClient;

  beforeAll(async () => {
    fake = await FakeSmsProvider.start({ clock: { now: () => h.t.clock.now() } });
    h = await createHostedTestApp(kind, { sms: fake.config() });
    web = await h.given.client();
    thirdParty = await h.given.client({ isFirstParty: false });
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });

  /** A browser at the identify step of a new request, with the PKCE verifier to redeem its code. */
  async function atIdentify(client = web, extra: Record<string, string> = {}) {
    const b = new InjectBrowser(h);
    const { verifier, challenge } = pkcePair();
    await b.follow(
      await b.authorize(
        authorizeQuery(client.clientId, { scope: 'openid profile email', ...extra }, challenge),
      ),
    );
    return { b, verifier };
  }

  const userByEmail = (email: string) =>
    h.t.svc.database.db
      .selectFrom('users')
      .selectAll()
      .where('emailKey', '=', requireEmailKey(email))
      .executeTakeFirst();
  const userByPhone = (e164: string) =>
    h.t.svc.database.db.selectFrom('users').selectAll().where('phoneE164', '=', e164).execute();

  it('"Create an account" leads to the form; signing up creates the account and its organization and returns a code (amr pwd)', async () => {
    const { b, verifier } = await atIdentify(web, { login_hint: 'ann@example.com' });
    const form = await b.click('Create an account');
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain(`action="${h.authBase}/signup/submit"`);
    expect(form.body).toMatch(/id="email"[^>]*value="ann@example.com"/s);
    expect(form.body).toContain('Sign up with a phone number instead');

    const email = `${uniqueName('new')}@example.com`;
    const done = await b.post('/signup/submit', {
      display_name: ' New Person ',
      email,
      password: NEW_PASSWORD,
      organization_name: 'Acme Signup',
    });
    expect(done.statusCode).toBe(303);
    expect(setCookies(done).map((cookie) => cookie.name)).toContain('svc_session');
    const tokens = await h.redeem(InjectBrowser.location(done), web.clientId, verifier);
    const user = await userByEmail(email);
    expect(user).toMatchObject({ displayName: 'New Person', email });
    const organizations = await h.t.svc.admin.getUserOrganizationsAsync(user?.id ?? '');
    expect(organizations).toEqual([expect.objectContaining({ name: 'Acme Signup', role: 'owner' })]);
    expect(decodeJwt(tokens.idToken ?? '')).toMatchObject({
      sub: user?.id,
      amr: ['pwd'],
      email,
      org_id: organizations[0]?.id,
    });
    // The new password signs in through the hosted pages.
    const again = await atIdentify();
    const second = await again.b.signIn(
      await again.b.get(`${h.authBase}/login?request_id=${again.b.fields.request_id}`),
      email,
      NEW_PASSWORD,
    );
    expect(second.statusCode).toBe(303);
    expect(InjectBrowser.location(second).searchParams.get('code')).toBeTruthy();
  });

  it('/authorize views signup, phone-otp-signup and phone-otp open these forms', async () => {
    const forms: Record<string, string> = {
      signup: '/signup/submit',
      'phone-otp-signup': '/signup/phone-otp/start',
      'phone-otp': '/login/phone-otp/start',
    };
    for (const [view, action] of Object.entries(forms)) {
      const b = new InjectBrowser(h);
      const page = await b.follow(await b.authorize(authorizeQuery(web.clientId, { view })));
      expect(page.statusCode, view).toBe(200);
      expect(page.body).toContain(`action="${h.authBase}${action}"`);
    }
  });

  it('validation errors come back inline (400) with the typed values, never the password, and create nothing', async () => {
    const { b } = await atIdentify();
    await b.click('Create an account');
    const valid = {
      display_name: 'Val Idation',
      email: `${uniqueName('val')}@example.com`,
      password: NEW_PASSWORD,
      organization_name: 'Org',
    };
    const cases: [Record<string, string>, string, string][] = [
      [{ display_name: '  ' }, HOSTED_MESSAGES.displayNameRequired, 'display_name'],
      [{ display_name: 'x'.repeat(201) }, HOSTED_MESSAGES.displayNameInvalid, 'display_name'],
      [{ email: '' }, HOSTED_MESSAGES.emailRequired, 'email'],
      [{ email: 'not-an-email' }, HOSTED_MESSAGES.emailInvalid, 'email'],
      [{ password: 'short12' }, HOSTED_MESSAGES.passwordTooShort, 'password'],
      [{ password: '' }, HOSTED_MESSAGES.passwordTooShort, 'password'],
      [{ password: 'p'.repeat(1025) }, HOSTED_MESSAGES.passwordTooLong, 'password'],
      [{ organization_name: 'o'.repeat(201) }, HOSTED_MESSAGES.organizationNameInvalid, 'organization_name'],
    ];
    for (const [change, message, field] of cases) {
      const response = await b.post('/signup/submit', { ...valid, ...change });
      expect(response.statusCode, message).toBe(400);
      expect(response.body).toContain(message);
      expect(response.body).toMatch(new RegExp(`id="${field}"[^>]*aria-invalid="true"`, 's'));
      expect(response.body.match(/aria-invalid/g)).toHaveLength(1);
      expect(response.body).not.toContain(NEW_PASSWORD);
      expect(response.body).not.toContain('short12');
      if (field !== 'email') expect(response.body).toContain(`value="${valid.email}"`);
      if (field !== 'display_name') expect(response.body).toContain('value="Val Idation"');
    }
    expect(await userByEmail(valid.email)).toBeUndefined();
  });

  it('a taken email says so inline and leaves the existing account alone', async () => {
    const existing = await h.given.user();
    const { b } = await atIdentify();
    await b.click('Create an account');
    const response = await b.post('/signup/submit', {
      display_name: 'Imposter',
      email: existing.email.toUpperCase(),
      password: NEW_PASSWORD,
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain(HOSTED_MESSAGES.emailTaken);
    expect(setCookies(response).map((cookie) => cookie.name)).not.toContain('svc_session');
    expect(await userByEmail(existing.email)).toMatchObject({
      id: existing.id,
      displayName: existing.displayName,
    });
    // The existing account still signs in with its own password.
    const login = await atIdentify();
    const done = await login.b.signIn(
      await login.b.get(`${h.authBase}/login?request_id=${login.b.fields.request_id}`),
      existing.email,
      HOSTED_PASSWORD,
    );
    expect(done.statusCode).toBe(303);
  });

  it('antiforgery: a signup post without the token or from another origin creates nothing', async () => {
    const { b } = await atIdentify();
    await b.click('Create an account');
    const requestId = b.fields.request_id ?? '';
    const email = `${uniqueName('af')}@example.com`;
    const fields = { display_name: 'A', email, password: NEW_PASSWORD };
    for (const options of [{ withoutToken: true }, { origin: 'https://evil.example' }, { origin: null }]) {
      const response = await b.post('/signup/submit', fields, options);
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain('This form has expired');
      await b.get(`${h.authBase}/signup?request_id=${requestId}`);
    }
    expect(await userByEmail(email)).toBeUndefined();
  });

  it('a third-party client sees consent after signup, then gets its code', async () => {
    const { b, verifier } = await atIdentify(thirdParty);
    await b.click('Create an account');
    const email = `${uniqueName('tp')}@example.com`;
    const consent = await b.follow(
      await b.post('/signup/submit', { display_name: 'Third Party', email, password: NEW_PASSWORD }),
    );
    expect(consent.body).toContain(`Allow ${thirdParty.name} to access your account?`);
    expect(consent.body).toContain(email);
    const done = await b.post('/consent/approve');
    expect(done.statusCode).toBe(303);
    const tokens = await h.redeem(InjectBrowser.location(done), thirdParty.clientId, verifier);
    expect(decodeJwt(tokens.idToken ?? '')).toMatchObject({ email, amr: ['pwd'] });
  });

  it('phone signup: texts a code, the enter-code step creates a phone-only account; consent shows no email; userinfo has no email claims', async () => {
    const number = nextNumber();
    const { b, verifier } = await atIdentify(thirdParty);
    await b.click('Create an account');
    const form = await b.click('Sign up with a phone number instead');
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain(`action="${h.authBase}/signup/phone-otp/start"`);
    const started = await b.post('/signup/phone-otp/start', {
      display_name: 'Phone Person',
      phone_number: number.national,
      organization_name: 'Phone Org',
    });
    expect(started.statusCode).toBe(303);
    const enterCode = await b.follow(started);
    expect(enterCode.body).toContain(`action="${h.authBase}/signup/phone-otp/verify"`);
    expect(enterCode.body).toContain(`+1 ••• ••• ${number.e164.slice(-4)}`);
    expect(await userByPhone(number.e164)).toEqual([]);

    const consent = await b.follow(
      await b.post('/signup/phone-otp/verify', { code: fake.lastCode(number.e164) ?? '' }),
    );
    expect(consent.body).toContain(`Allow ${thirdParty.name} to access your account?`);
    // No address to show: the consent page names the account by its display name.
    expect(consent.body).toMatch(/Signed in as\s*<strong>Phone Person<\/strong/);
    const [user] = await userByPhone(number.e164);
    expect(user).toMatchObject({ displayName: 'Phone Person', email: null, passwordHash: null });
    expect(Number(user?.phoneVerified)).toBe(1);
    const organizations = await h.t.svc.admin.getUserOrganizationsAsync(user?.id ?? '');
    expect(organizations).toEqual([expect.objectContaining({ name: 'Phone Org', role: 'owner' })]);

    const done = await b.post('/consent/approve');
    const tokens = await h.redeem(InjectBrowser.location(done), thirdParty.clientId, verifier);
    const idClaims = decodeJwt(tokens.idToken ?? '');
    expect(idClaims).toMatchObject({
      sub: user?.id,
      amr: ['sms'],
      name: 'Phone Person',
      org_id: organizations[0]?.id,
    });
    expect(idClaims).not.toHaveProperty('email');
    const info = await h.inject({
      method: 'GET',
      url: `${h.authBase}/userinfo`,
      headers: { authorization: `Bearer ${tokens.accessToken}` },
    });
    expect(info.statusCode).toBe(200);
    const claims = info.json<Record<string, unknown>>();
    expect(claims).toMatchObject({ sub: user?.id, name: 'Phone Person' });
    for (const claim of ['email', 'email_verified', 'preferred_username'])
      expect(claims).not.toHaveProperty(claim);
  });

  it('phone signup for a number that has an account: byte-identical pages, no text, and the code never creates anything', async () => {
    const fresh = nextNumber();
    const taken = nextNumber();
    const owner = await h.given.user();
    await phoneOtpRepository(h.t.svc.database.db).setUserPhone(owner.id, taken.e164, h.t.clock.now());
    const pages: string[] = [];
    for (const number of [fresh, taken]) {
      const { b } = await atIdentify();
      await b.get(`${h.authBase}/signup/phone-otp?request_id=${b.fields.request_id}`);
      const started = await b.post('/signup/phone-otp/start', {
        display_name: 'Sam',
        phone_number: number.e164,
      });
      const enterCode = await b.follow(started);
      const wrong = await b.post('/signup/phone-otp/verify', { code: '000000' });
      expect(wrong.statusCode).toBe(400);
      pages.push(
        [started.statusCode, InjectBrowser.location(started).pathname, enterCode.body, wrong.body]
          .join('\n')
          .replaceAll(b.fields.request_id ?? 'none', 'REQUEST')
          .replace(/name="_csrf" value="[^"]*"/g, 'name="_csrf" value=""')
          .replaceAll(number.e164.slice(-4), 'XXXX'),
      );
    }
    expect(pages[1]).toBe(pages[0]);
    expect(fake.sent.filter((sms) => sms.to === taken.e164)).toHaveLength(0);
    expect(await userByPhone(taken.e164)).toEqual([expect.objectContaining({ id: owner.id })]);
  });

  it('phone signup form errors come back inline with the typed values; a new code page is prefilled', async () => {
    const { b } = await atIdentify();
    const requestId = b.fields.request_id ?? '';
    await b.get(`${h.authBase}/signup/phone-otp?request_id=${requestId}`);
    const number = nextNumber();
    const cases: [Record<string, string>, string, string][] = [
      [{ display_name: '' }, HOSTED_MESSAGES.displayNameRequired, 'display_name'],
      [{ phone_number: '' }, HOSTED_MESSAGES.phoneRequired, 'phone_number'],
      [{ phone_number: '12' }, HOSTED_MESSAGES.phoneInvalid, 'phone_number'],
      [{ organization_name: 'o'.repeat(201) }, HOSTED_MESSAGES.organizationNameInvalid, 'organization_name'],
    ];
    for (const [change, message, field] of cases) {
      const response = await b.post('/signup/phone-otp/start', {
        display_name: 'Typed Name',
        phone_number: number.national,
        ...change,
      });
      expect(response.statusCode, message).toBe(400);
      expect(response.body).toContain(message);
      expect(response.body).toMatch(new RegExp(`id="${field}"[^>]*aria-invalid="true"`, 's'));
      if (field !== 'display_name') expect(response.body).toContain('value="Typed Name"');
    }
    expect(fake.sent.filter((sms) => sms.to === number.e164)).toHaveLength(0);

    await b.follow(
      await b.post('/signup/phone-otp/start', {
        display_name: 'Typed Name',
        phone_number: number.national,
        organization_name: 'Typed Org',
      }),
    );
    const resend = await b.get(`${h.authBase}/signup/phone-otp?request_id=${requestId}`);
    expect(resend.body).toMatch(/id="display_name"[^>]*value="Typed Name"/s);
    expect(resend.body).toMatch(new RegExp(`id="phone_number"[^>]*value="\\${number.e164}"`, 's'));
    expect(resend.body).toMatch(/id="organization_name"[^>]*value="Typed Org"/s);
  });

  it('phone signup codes: wrong and expired codes come back inline, the account exists only after the right one', async () => {
    const number = nextNumber();
    const { b, verifier } = await atIdentify();
    await b.get(`${h.authBase}/signup/phone-otp?request_id=${b.fields.request_id}`);
    await b.follow(
      await b.post('/signup/phone-otp/start', { display_name: 'Late', phone_number: number.e164 }),
    );
    const code = fake.lastCode(number.e164) ?? '';
    const wrong = await b.post('/signup/phone-otp/verify', { code: code === '000000' ? '111111' : '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain(HOSTED_MESSAGES.codeInvalid);
    h.t.clock.advance(10 * 60_000);
    const late = await b.post('/signup/phone-otp/verify', { code });
    expect(late.statusCode).toBe(400);
    expect(await userByPhone(number.e164)).toEqual([]);

    // A new code (the provider's verification expired too) creates the account.
    await b.get(`${h.authBase}/signup/phone-otp?request_id=${b.fields.request_id}`);
    await b.follow(
      await b.post('/signup/phone-otp/start', { display_name: 'Late', phone_number: number.e164 }),
    );
    const done = await b.post('/signup/phone-otp/verify', { code: fake.lastCode(number.e164) ?? '' });
    expect(done.statusCode).toBe(303);
    const tokens = await h.redeem(InjectBrowser.location(done), web.clientId, verifier);
    const [user] = await userByPhone(number.e164);
    expect(decodeJwt(tokens.idToken ?? '')).toMatchObject({ sub: user?.id, amr: ['sms'] });
    expect(tokens.organizationId).toBeNull();
  });
});

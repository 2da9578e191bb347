import {
  HEADLESS_VIEWS,
  headlessActionResultSchema,
  type HeadlessView,
  type SvcCreatedClient,
  type SvcHeadlessActionResult,
  type SvcHeadlessStartBody,
  type SvcOrganization,
} from '@svc/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../kernel/clock.js';
import { phoneOtpRepository } from '../storage/repositories/phone-otp.js';
import { CLIENT_REDIRECT_URI, pkcePair } from '../test-support/authorize-params.js';
import { describeAboveStorage } from '../test-support/databases.js';
import { FakeSmsProvider } from '../test-support/fake-sms-provider.js';
import { HeadlessBrowser, headlessStartBody as startBody } from '../test-support/headless-browser.js';
import {
  createHostedTestApp,
  createMailedHostedTestApp,
  HOSTED_PASSWORD,
  uniqueName,
  type MailedHostedTestApp,
} from '../test-support/hosted-test-app.js';
import { InjectBrowser } from '../test-support/inject-browser.js';
import { form } from '../test-support/oauth-http.js';
import { codeIn, linkIn } from '../test-support/outbox.js';
import type { CapturedEmail } from '../test-support/smtp-server.js';

type Result = SvcHeadlessActionResult & Record<string, unknown>;

let numbers = 0;
/** A new valid (NANP 555-01xx) number for each use. */
const newNumber = () => `+120155501${String((numbers += 1) % 100).padStart(2, '0')}`;

/**
 * The headless actions beyond password, organization, MFA and consent (headless.http.test.ts): email and
 * phone codes, links, signups, password reset, invitations, device, provider, logout, the generic submit,
 * the /start `view`, and the app-owned UI redirect. Every answer is checked against the contract; the
 * views seen are collected, and the suite fails unless all 28 of docs/reference/sign-in.md "Headless API" were reached.
 */
describeAboveStorage('headless actions', (kind) => {
  let h: MailedHostedTestApp;
  let fake: FakeSmsProvider;
  let web: SvcCreatedClient;
  let tv: SvcCreatedClient;
  let org: SvcOrganization;
  const seen = new Set<HeadlessView>();

  beforeAll(async () => {
    fake = await FakeSmsProvider.start({ clock: { now: () => h.t.clock.now() } });
    // Texts to the UK are refused (toll-fraud protection), so that a refused country's view is reached too.
    h = await createMailedHostedTestApp(kind, { sms: { ...fake.config(), deniedCountries: ['GB'] } });
    web = await h.given.client();
    tv = await h.given.client({
      isFirstParty: false,
      allowDeviceAuthorization: true,
      allowedScopes: ['openid', 'profile', 'email'],
    });
    org = await h.given.organization('Acme Corp');
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
    // The views the other headless suites reach (password, organization, MFA, consent) are theirs.
    const elsewhere: HeadlessView[] = ['password', 'organization', 'mfa', 'mfa-enroll', 'consent'];
    expect(HEADLESS_VIEWS.filter((view) => !seen.has(view) && !elsewhere.includes(view))).toEqual([]);
  });
  // Past every send window (per address and per IP), so that tests do not throttle each other.
  beforeEach(() => {
    h.t.clock.advance(16 * MINUTE_MS);
  });

  function resultOf(response: LightMyRequestResponse, status = 200): Result {
    expect(response.statusCode, response.body.slice(0, 400)).toBe(status);
    const body = response.json<Result>();
    headlessActionResultSchema.parse(body);
    if (body.viewModel !== null) seen.add(body.viewModel.view);
    return body;
  }

  async function mailTo(address: string, after = 0): Promise<CapturedEmail> {
    for (let count = 1; ; count += 1) {
      const found = (await h.smtp.waitFor(count)).filter((m) => m.rcptTo.includes(address))[after];
      if (found !== undefined) return found;
    }
  }

  async function started(client = web, extra: Partial<SvcHeadlessStartBody> = {}) {
    const b = new HeadlessBrowser(h);
    const first = resultOf(await b.post('/start', startBody(client.clientId, extra)));
    return { b, first, requestId: first.viewModel?.requestId ?? '' };
  }

  const codeOf = (result: Result) => result.authorization?.code;

  it('/start opens the view it names; a view that is not a first screen is an invalid_request for the client', async () => {
    const views = [
      'login',
      'signup',
      'forgot-password',
      'email-otp',
      'phone-otp',
      'phone-otp-signup',
    ] as const;
    for (const view of views) {
      const { first } = await started(web, { view, loginHint: 'hint@example.com' });
      expect(first.viewModel?.view).toBe(view);
    }
    const { first } = await started(web, { view: 'signup', loginHint: 'hint@example.com' });
    expect(first.viewModel).toMatchObject({ values: { email: 'hint@example.com', displayName: '' } });
    // As /authorize: a valid client and redirect URI get the error at the redirect URI.
    const b = new HeadlessBrowser(h);
    const refused = resultOf(await b.post('/start', startBody(web.clientId, { view: 'consent' })));
    expect(refused).toMatchObject({ type: 'redirect', authorization: null });
    expect(new URL(refused.redirectUrl ?? '').searchParams.get('error')).toBe('invalid_request');
  });

  it('email code: start → email-otp-verify → a wrong code is a 400 → the mailed code completes', async () => {
    const user = await h.given.user();
    const { b, requestId } = await started(web, { view: 'email-otp' });
    const missing = resultOf(await b.post('/email-otp/start', { requestId, email: '' }), 400);
    expect(missing).toMatchObject({ error: 'email_required', viewModel: { view: 'email-otp' } });
    const verify = resultOf(await b.post('/email-otp/start', { requestId, email: user.email }));
    expect(verify.viewModel).toMatchObject({
      view: 'email-otp-verify',
      target: expect.stringContaining('@'),
    });
    const code = codeIn((await mailTo(user.email)).text);
    const wrong = resultOf(await b.post('/email-otp/verify', { requestId, code: '000000' }), 400);
    expect(wrong).toMatchObject({ error: 'code_invalid', viewModel: { view: 'email-otp-verify' } });
    const done = resultOf(await b.post('/email-otp/verify', { requestId, code }));
    expect(done).toMatchObject({ type: 'redirect', authorization: { redirectUri: CLIENT_REDIRECT_URI } });
    expect(codeOf(done)).toBeTruthy();
  });

  it('magic link: start → magic-link-sent; complete in this browser with the mailed token; not for another request', async () => {
    const user = await h.given.user();
    const { b, requestId } = await started();
    const bad = resultOf(await b.post('/magic-link/start', { requestId, email: 'not an address' }), 400);
    expect(bad).toMatchObject({ error: 'email_invalid', viewModel: { view: 'magic-link' } });
    const sent = resultOf(await b.post('/magic-link/start', { requestId, email: user.email }));
    expect(sent.viewModel?.view).toBe('magic-link-sent');
    const token = new URL(linkIn((await mailTo(user.email)).text)).searchParams.get('token') ?? '';

    const other = await started();
    const refused = await other.b.post('/magic-link/complete', { requestId: other.requestId, token });
    expect(refused.statusCode).toBe(400);

    const done = resultOf(await b.post('/magic-link/complete', { requestId, token }));
    expect(done.type).toBe('redirect');
    expect(codeOf(done)).toBeTruthy();
    expect((await b.post('/magic-link/complete', { requestId, token })).statusCode).toBe(400);
  });

  it('phone code: start → phone-otp-verify → the texted code completes', async () => {
    const user = await h.given.user();
    const e164 = newNumber();
    await phoneOtpRepository(h.t.svc.database.db).setUserPhone(user.id, e164, h.t.clock.now());
    const { b, requestId } = await started(web, { view: 'phone-otp' });
    const invalid = resultOf(await b.post('/phone-otp/start', { requestId, phoneNumber: 'abc' }), 400);
    expect(invalid).toMatchObject({ error: 'phone_invalid', viewModel: { view: 'phone-otp' } });
    const refused = resultOf(
      await b.post('/phone-otp/start', { requestId, phoneNumber: '+44 7400 123456' }),
      400,
    );
    expect(refused).toMatchObject({ error: 'phone_country_refused', viewModel: { view: 'phone-otp' } });
    expect(fake.sent.filter((sms) => sms.to === '+447400123456')).toEqual([]);
    const verify = resultOf(await b.post('/phone-otp/start', { requestId, phoneNumber: e164 }));
    expect(verify.viewModel?.view).toBe('phone-otp-verify');
    const done = resultOf(await b.post('/phone-otp/verify', { requestId, code: fake.lastCode(e164) ?? '' }));
    expect(codeOf(done)).toBeTruthy();
  });

  it('signup with a password, with an emailed code, and with a texted code each end with a code', async () => {
    const email = `${uniqueName('signup')}@example.com`;
    const first = await started(web, { view: 'signup' });
    const short = resultOf(
      await first.b.post('/signup', { requestId: first.requestId, displayName: 'Ann', email, password: 'x' }),
      400,
    );
    expect(short).toMatchObject({
      error: 'password_too_short',
      viewModel: { view: 'signup', values: { email } },
    });
    const created = resultOf(
      await first.b.post('/signup', {
        requestId: first.requestId,
        displayName: 'Ann',
        email,
        password: HOSTED_PASSWORD,
        organizationName: 'Ann Co',
      }),
    );
    expect(codeOf(created)).toBeTruthy();

    const emailed = `${uniqueName('otp-signup')}@example.com`;
    const second = await started();
    const verify = resultOf(
      await second.b.post('/signup/email-otp/start', {
        requestId: second.requestId,
        displayName: 'Bea',
        email: emailed,
      }),
    );
    expect(verify.viewModel?.view).toBe('email-otp-signup-verify');
    const code = codeIn((await mailTo(emailed)).text);
    const wrong = await second.b.post('/signup/email-otp/verify', {
      requestId: second.requestId,
      code: '000000',
    });
    expect(resultOf(wrong, 400).viewModel?.view).toBe('email-otp-signup-verify');
    const done = resultOf(
      await second.b.post('/signup/email-otp/verify', { requestId: second.requestId, code }),
    );
    expect(codeOf(done)).toBeTruthy();
    const account = await h.t.svc.database.db
      .selectFrom('users')
      .select(['displayName', 'passwordHash'])
      .where('email', '=', emailed)
      .executeTakeFirstOrThrow();
    expect(account).toEqual({ displayName: 'Bea', passwordHash: null });

    const e164 = newNumber();
    const third = await started(web, { view: 'phone-otp-signup' });
    const texted = resultOf(
      await third.b.post('/signup/phone-otp/start', {
        requestId: third.requestId,
        displayName: 'Cy',
        phoneNumber: e164,
      }),
    );
    expect(texted.viewModel?.view).toBe('phone-otp-signup-verify');
    const phoneDone = resultOf(
      await third.b.post('/signup/phone-otp/verify', {
        requestId: third.requestId,
        code: fake.lastCode(e164),
      }),
    );
    expect(codeOf(phoneDone)).toBeTruthy();
  });

  it('a signup by emailed code started here can be finished on the hosted enter-code page of the same browser', async () => {
    const email = `${uniqueName('hosted-finish')}@example.com`;
    const { b, requestId } = await started();
    resultOf(await b.post('/signup/email-otp/start', { requestId, displayName: 'Flo', email }));
    const code = codeIn((await mailTo(email)).text);
    const hosted = new InjectBrowser(h);
    for (const [name, value] of b.cookies) hosted.cookies.set(name, value);
    const page = await hosted.get(`${h.authBase}/login?request_id=${requestId}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`action="${h.authBase}/signup/email-otp/verify"`);
    const done = await hosted.post('/signup/email-otp/verify', { code });
    expect(done.statusCode).toBe(303);
    expect(InjectBrowser.location(done).searchParams.get('code')).toBeTruthy();
  });

  it('password forgot → forgot-password-sent for every address; reset with the mailed token → the sign-in view', async () => {
    const user = await h.given.user();
    const { b, requestId } = await started();
    const invalid = resultOf(await b.post('/password/forgot', { requestId, email: 'nope' }), 400);
    expect(invalid).toMatchObject({ error: 'email_invalid', viewModel: { view: 'forgot-password' } });
    const known = resultOf(await b.post('/password/forgot', { requestId, email: user.email }));
    const unknown = resultOf(await b.post('/password/forgot', { requestId, email: 'nobody@example.com' }));
    expect(known).toEqual(unknown);
    expect(known.viewModel?.view).toBe('forgot-password-sent');

    const link = new URL(linkIn((await mailTo(user.email)).text));
    expect(link.searchParams.get('request_id')).toBe(requestId);
    const token = link.searchParams.get('token') ?? '';
    const bad = resultOf(
      await b.post('/password/reset', { requestId, token: 'wrong', newPassword: 'long enough 1' }),
      400,
    );
    expect(bad).toMatchObject({ error: 'invalid_token', viewModel: { view: 'password-reset' } });
    const short = resultOf(await b.post('/password/reset', { requestId, token, newPassword: 'short' }), 400);
    expect(short.error).toBe('password_too_short');
    const changed = resultOf(
      await b.post('/password/reset', { requestId, token, newPassword: 'a new password 42' }),
    );
    expect(changed.viewModel).toMatchObject({ view: 'svc', passwordChanged: true });
    resultOf(await b.post('/identify', { requestId, email: user.email }));
    const done = resultOf(await b.post('/password/login', { requestId, password: 'a new password 42' }));
    expect(codeOf(done)).toBeTruthy();
  });

  describe('invitations', () => {
    async function invite(email: string) {
      const created = await h.inject({
        method: 'POST',
        url: `/svc/admin/auth/api/organizations/${org.id}/invitations`,
        headers: h.t.operator,
        payload: { email, role: 'editor', clientId: web.clientId, redirectUri: CLIENT_REDIRECT_URI },
      });
      expect(created.statusCode, created.body).toBe(201);
      const link = new URL(linkIn(h.smtp.to(email).at(-1)?.text ?? null));
      return link.searchParams.get('token') ?? '';
    }
    const isMember = async (email: string) => {
      const row = await h.t.svc.database.db
        .selectFrom('memberships')
        .innerJoin('users', 'users.id', 'memberships.userId')
        .select('memberships.role')
        .where('users.email', '=', email)
        .where('memberships.organizationId', '=', org.id)
        .executeTakeFirst();
      return row?.role;
    };

    it('a new address: resolve → signup view with the invitation → signup joins, then the code', async () => {
      const email = `${uniqueName('invitee')}@example.com`;
      const invitationToken = await invite(email);
      const { b, requestId } = await started(web, { invitationToken });
      const resolved = resultOf(await b.post('/invitations/resolve', { requestId, invitationToken }));
      expect(resolved.viewModel).toMatchObject({
        view: 'signup',
        invitation: { email, organizationName: 'Acme Corp', role: 'editor', acceptWith: 'signup' },
        values: { email },
      });
      const noName = resultOf(
        await b.post('/invitations/signup', { requestId, invitationToken, displayName: '' }),
        400,
      );
      expect(noName.error).toBe('display_name_required');
      const joined = resultOf(
        await b.post('/invitations/signup', { requestId, invitationToken, displayName: 'Dee' }),
      );
      expect(joined).toMatchObject({ type: 'redirect', viewModel: { view: 'invite-accepted' } });
      expect(codeOf(joined)).toBeTruthy();
      expect(await isMember(email)).toBe('editor');
    });

    it('an account with a password: invite-login → a wrong password is a 400 → the password joins', async () => {
      const user = await h.given.user();
      const invitationToken = await invite(user.email);
      const { b, requestId } = await started();
      const resolved = resultOf(await b.post('/invitations/resolve', { requestId, invitationToken }));
      expect(resolved.viewModel).toMatchObject({
        view: 'invite-login',
        invitation: { acceptWith: 'password' },
      });
      const wrong = resultOf(
        await b.post('/invitations/login', { requestId, invitationToken, password: 'wrong password' }),
        400,
      );
      expect(wrong).toMatchObject({ error: 'invalid_credentials', viewModel: { view: 'invite-login' } });
      const joined = resultOf(
        await b.post('/invitations/login', { requestId, invitationToken, password: HOSTED_PASSWORD }),
      );
      expect(joined.viewModel?.view).toBe('invite-accepted');
      expect(await isMember(user.email)).toBe('editor');
    });

    it('an account without a password: the invited address gets a code (invite-email-otp-verify) that joins and signs in', async () => {
      // A passwordless account: created by an emailed signup code.
      const email = `${uniqueName('passwordless')}@example.com`;
      const signup = await started();
      resultOf(
        await signup.b.post('/signup/email-otp/start', {
          requestId: signup.requestId,
          displayName: 'Eve',
          email,
        }),
      );
      const signupCode = codeIn((await mailTo(email)).text);
      resultOf(
        await signup.b.post('/signup/email-otp/verify', { requestId: signup.requestId, code: signupCode }),
      );

      const invitationToken = await invite(email);
      const { b, requestId } = await started();
      const resolved = resultOf(await b.post('/invitations/resolve', { requestId, invitationToken }));
      expect(resolved.viewModel).toMatchObject({
        view: 'invite-login',
        invitation: { acceptWith: 'sign_in_first' },
      });
      // Past the address's send window of the signup code.
      h.t.clock.advance(16 * MINUTE_MS);
      const mails = h.smtp.to(email).length;
      const sent = resultOf(await b.post('/invitations/email-otp/start', { requestId, invitationToken }));
      expect(sent.viewModel).toMatchObject({ view: 'invite-email-otp-verify', invitation: { email } });
      const code = codeIn((await mailTo(email, mails)).text);
      const wrong = resultOf(
        await b.post('/invitations/email-otp/verify', { requestId, invitationToken, code: '000000' }),
        400,
      );
      expect(wrong.viewModel?.view).toBe('invite-email-otp-verify');
      expect(await isMember(email)).toBeUndefined();
      const joined = resultOf(
        await b.post('/invitations/email-otp/verify', { requestId, invitationToken, code }),
      );
      expect(joined).toMatchObject({ type: 'redirect', viewModel: { view: 'invite-accepted' } });
      expect(await isMember(email)).toBe('editor');
    });

    it('an unusable invitation token is one generic 400', async () => {
      const { b, requestId } = await started();
      const response = await b.post('/invitations/resolve', { requestId, invitationToken: 'not-a-token' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: 'invalid_invitation' });
    });
  });

  it('device: resolve the code → sign in → device-approve → a wrong code is refused → approve; deny another', async () => {
    const user = await h.given.user();
    const startDevice = async () => {
      const response = await h.inject({
        method: 'POST',
        url: `${h.authBase}/device_authorization`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: form({ client_id: tv.clientId, scope: 'openid profile' }),
      });
      expect(response.statusCode).toBe(200);
      return response.json<{ user_code: string; device_code: string }>();
    };
    const device = await startDevice();
    const b = new HeadlessBrowser(h);
    const invalid = resultOf(await b.post('/device/resolve', { userCode: 'BCDF-GHJK' }), 400);
    expect(invalid).toMatchObject({ error: 'device_code_invalid', viewModel: { view: 'device' } });
    const signIn = resultOf(await b.post('/device/resolve', { userCode: device.user_code.toLowerCase() }));
    expect(signIn.viewModel?.view).toBe('svc');
    const requestId = signIn.viewModel?.requestId ?? '';
    resultOf(await b.post('/identify', { requestId, email: user.email }));
    const approve = resultOf(await b.post('/password/login', { requestId, password: HOSTED_PASSWORD }));
    expect(approve.viewModel).toMatchObject({ view: 'device-approve', userCode: device.user_code });
    const mismatch = resultOf(await b.post('/device/approve', { requestId, userCode: 'BCDF-GHJK' }), 400);
    expect(mismatch.error).toBe('device_code_mismatch');
    const approved = resultOf(await b.post('/device/approve', { requestId, userCode: device.user_code }));
    expect(approved.viewModel?.view).toBe('device-approved');
    const poll = await h.inject({
      method: 'POST',
      url: `${h.authBase}/token`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({
        grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
        client_id: tv.clientId,
        device_code: device.device_code,
      }),
    });
    expect(poll.statusCode).toBe(200);

    const other = await startDevice();
    const second = resultOf(await b.post('/device/resolve', { userCode: other.user_code }));
    const otherId = second.viewModel?.requestId ?? '';
    resultOf(await b.post('/identify', { requestId: otherId, email: user.email }));
    resultOf(await b.post('/password/login', { requestId: otherId, password: HOSTED_PASSWORD }));
    const denied = resultOf(await b.post('/device/deny', { requestId: otherId, userCode: other.user_code }));
    expect(denied.viewModel?.view).toBe('device-denied');
  });

  it('provider/start refuses a provider this server does not offer; logout ends the session and clears its cookie', async () => {
    const user = await h.given.user();
    const { b, requestId } = await started();
    const provider = resultOf(await b.post('/provider/start', { requestId, providerId: 'google' }), 400);
    expect(provider).toMatchObject({
      error: 'provider_unavailable',
      viewModel: { view: 'svc', providers: [] },
    });

    resultOf(await b.post('/identify', { requestId, email: user.email }));
    resultOf(await b.post('/password/login', { requestId, password: HOSTED_PASSWORD }));
    const session = b.cookies.get('svc_session') ?? '';
    expect(session).not.toBe('');
    const out = await b.post('/start', startBody(web.clientId));
    const outId = resultOf(out).viewModel?.requestId ?? '';
    const loggedOut = resultOf(await b.post('/logout', { requestId: outId }));
    expect(loggedOut.viewModel?.view).toBe('logged-out');
    expect(b.cookies.has('svc_session')).toBe(false);
    // The ended session no longer signs anyone in at /authorize.
    const hosted = new InjectBrowser(h);
    hosted.cookies.set('svc_session', session);
    const authorize = await hosted.authorize({
      response_type: 'code',
      client_id: web.clientId,
      redirect_uri: CLIENT_REDIRECT_URI,
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
    });
    expect(InjectBrowser.location(authorize).searchParams.get('code')).toBeNull();
  });

  it('the generic submit posts any action by name with its own fields; unknown actions and bad fields are 400s', async () => {
    const user = await h.given.user();
    const { b, requestId } = await started();
    const password = resultOf(await b.post('/submit', { action: 'identify', requestId, email: user.email }));
    expect(password.viewModel?.view).toBe('password');
    const done = resultOf(
      await b.post('/submit', { action: 'password/login', requestId, password: HOSTED_PASSWORD }),
    );
    expect(codeOf(done)).toBeTruthy();
    const unknown = await b.post('/submit', { action: 'password/steal', requestId });
    expect(unknown.statusCode).toBe(400);
    const missing = await b.post('/submit', { action: 'identify' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: 'invalid_request' });
  });
});

describe('headless capabilities a deployment does not run', () => {
  it('phone routes answer 404 not_available without an SMS provider; the view model offers no phone_otp', async () => {
    const h = await createHostedTestApp('sqlite');
    try {
      const web = await h.given.client();
      const b = new HeadlessBrowser(h);
      const first = b.post('/start', startBody(web.clientId));
      const body = (await first).json<SvcHeadlessActionResult>();
      expect(body.viewModel?.settings.enabledCredentialTypes).not.toContain('phone_otp');
      const requestId = body.viewModel?.requestId ?? '';
      const response = await b.post('/phone-otp/start', { requestId, phoneNumber: '+15550000000' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ error: 'not_available' });
    } finally {
      await h.close();
    }
  });
});

describe('app-owned sign-in UI (headlessUiUrl)', () => {
  it('/authorize sends the browser to the UI with request, view, email and ui_context; the UI continues the request', async () => {
    const h = await createHostedTestApp('sqlite', {
      headlessUiUrl: 'http://127.0.0.1:9/sign-in?tenant=a',
    });
    try {
      const web = await h.given.client();
      const user = await h.given.user();
      const browser = new InjectBrowser(h);
      const response = await browser.authorize({
        response_type: 'code',
        client_id: web.clientId,
        redirect_uri: CLIENT_REDIRECT_URI,
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
        login_hint: user.email,
        view: 'password',
        ui_context: '{"theme":"dark"}',
      });
      expect(response.statusCode).toBe(302);
      const location = InjectBrowser.location(response);
      expect(location.origin + location.pathname).toBe('http://127.0.0.1:9/sign-in');
      expect(Object.fromEntries(location.searchParams)).toEqual({
        tenant: 'a',
        request: expect.stringMatching(/^azr_/),
        view: 'password',
        email: user.email,
        ui_context: '{"theme":"dark"}',
      });
      // The UI drives the same request with the same browser's cookies.
      const b = new HeadlessBrowser(h);
      for (const [name, value] of browser.cookies) b.cookies.set(name, value);
      const requestId = location.searchParams.get('request') ?? '';
      const done = await b.post('/password/login', { requestId, password: HOSTED_PASSWORD });
      expect(done.json()).toMatchObject({ type: 'redirect' });
    } finally {
      await h.close();
    }
  });

  it('is refused at start when it is not an absolute https URL (http only on loopback) or the API is off', async () => {
    await expect(createHostedTestApp('sqlite', { headlessUiUrl: 'http://app.example.com/' })).rejects.toThrow(
      /headlessUiUrl must be an absolute https URL/,
    );
    await expect(
      createHostedTestApp('sqlite', { headlessUiUrl: 'https://app.example.com/', enableApi: false }),
    ).rejects.toThrow(/needs the headless API/);
  });
});

import type { SvcCreatedClient } from '@svc/contract';
import type { LightMyRequestResponse } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../kernel/clock.js';
import { TOTP_STEP_MS } from '../../test-support/authenticator-app.js';
import { describeAboveStorage } from '../../test-support/databases.js';
import {
  createHostedTestApp,
  HOSTED_PASSWORD,
  type HostedTestApp,
  type TestUser,
} from '../../test-support/hosted-test-app.js';
import { InjectBrowser } from '../../test-support/inject-browser.js';
import { selfEnroll } from '../../test-support/mfa.js';
import { form } from '../../test-support/oauth-http.js';
import { HOSTED_MESSAGES } from '../form.js';

const GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const heading = (title: string) => `<h1 id="page-title">${title}</h1>`;
const EXPIRED_REQUEST = heading('This sign-in has expired');

/** The value of the page's user-code field, as a browser would submit it. */
const prefilledCode = (page: string) => /name="user_code"[^>]*value="([^"]*)"/.exec(page)?.[1] ?? '';

interface StartedDevice {
  readonly device_code: string;
  readonly user_code: string;
  readonly verification_uri_complete: string;
}

/** What a device and the browser of its user do against one hosted test app. */
function deviceActors(app: () => HostedTestApp) {
  const start = async (client: SvcCreatedClient, scope = 'openid profile email'): Promise<StartedDevice> => {
    const response = await app().inject({
      method: 'POST',
      url: `${app().authBase}/device_authorization`,
      headers: FORM,
      payload: form({ client_id: client.clientId, scope }),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<StartedDevice>();
  };
  const poll = async (client: SvcCreatedClient, started: StartedDevice) => {
    const response = await app().inject({
      method: 'POST',
      url: `${app().authBase}/token`,
      headers: FORM,
      payload: form({ grant_type: GRANT_TYPE, client_id: client.clientId, device_code: started.device_code }),
    });
    return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
  };
  /** A browser that opened verification_uri_complete and continued with the prefilled code. */
  const verify = async (started: StartedDevice, b = new InjectBrowser(app())) => {
    const page = await b.get(started.verification_uri_complete);
    expect(page.statusCode).toBe(200);
    return { b, response: await b.post('/device/verify', { user_code: prefilledCode(page.body) }) };
  };
  return { start, poll, verify };
}

describeAboveStorage('hosted device pages', (kind) => {
  let h: HostedTestApp;
  let tv: SvcCreatedClient;
  const { start, poll, verify } = deviceActors(() => h);

  beforeAll(async () => {
    // This suite's browsers all come from one address: the per-IP limit has a suite of its own below.
    h = await createHostedTestApp(kind, { rateLimits: { deviceVerify: { ip: { limit: 1000 } } } });
    tv = await h.given.client({
      isFirstParty: false,
      allowDeviceAuthorization: true,
      allowedScopes: ['openid', 'profile', 'email', 'offline_access'],
    });
  });
  afterAll(async () => {
    await h.close();
  });

  const approvalHeading = () => heading(`Sign in to ${tv.name} on your device?`);
  const isApproval = (response: LightMyRequestResponse, userCode: string) =>
    response.statusCode === 200 &&
    response.body.includes(approvalHeading()) &&
    response.body.includes(`<p class="user-code">${userCode}</p>`);
  const requestIdOf = (b: InjectBrowser) => b.fields.request_id ?? '';

  /** A new user's browser, signed in with the password on the device request, at its approval page. */
  async function atApproval(started: StartedDevice, user?: TestUser) {
    const signedIn = user ?? (await h.given.user());
    const { b, response } = await verify(started);
    const page = await b.signIn(response, signedIn.email, HOSTED_PASSWORD);
    expect(isApproval(page, started.user_code), page.body.slice(0, 400)).toBe(true);
    return { b, user: signedIn, page };
  }

  it('GET /device asks for the code: prefilled in display form from the device link, escaped, with a form token', async () => {
    const b = new InjectBrowser(h);
    const prefilled = await b.get(`${h.authBase}/device?user_code=bcdf%20ghjk`);
    expect(prefilled.statusCode).toBe(200);
    expect(prefilled.headers['cache-control']).toBe('no-store');
    expect(prefilled.body).toContain(heading('Connect a device'));
    expect(prefilled.body).toContain(`<form method="post" action="${h.authBase}/device/verify">`);
    expect(prefilledCode(prefilled.body)).toBe('BCDF-GHJK');
    expect(Object.keys(b.fields)).toEqual(['_csrf']);
    expect(b.cookies.has('svc_af')).toBe(true);

    expect(prefilledCode((await b.get(`${h.authBase}/device`)).body)).toBe('');
    const hostile = await b.get(`${h.authBase}/device?user_code=${encodeURIComponent('"><b>x</b>')}`);
    expect(hostile.body).toContain('value="&quot;&gt;&lt;b&gt;x&lt;/b&gt;"');
    expect(hostile.body).not.toContain('<b>x</b>');
  });

  it('refuses a post without its form token or from another origin before looking at the code', async () => {
    const started = await start(tv);
    const b = new InjectBrowser(h);
    await b.get(started.verification_uri_complete);
    for (const options of [{ withoutToken: true }, { origin: 'https://evil.example' }]) {
      const refused = await b.post('/device/verify', {}, options);
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain(heading('This form has expired'));
    }
    const page = await b.get(started.verification_uri_complete);
    const accepted = await b.post('/device/verify', { user_code: prefilledCode(page.body) });
    expect(accepted.statusCode).toBe(303);
    expect(accepted.headers.location).toMatch(new RegExp(`^${h.authBase}/login\\?request_id=azr_`));
  });

  it('a malformed, unknown, already decided or expired code gets one answer, with the code as typed', async () => {
    const decided = await start(tv);
    await h.t.svc.auth.denyDeviceAuthorizationAsync({ userCode: decided.user_code });
    const b = new InjectBrowser(h);
    await b.get(`${h.authBase}/device`);
    const typed = async (userCode: string) => {
      const response = await b.post('/device/verify', { user_code: userCode });
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain(HOSTED_MESSAGES.deviceCodeInvalid);
      expect(response.body).toContain('aria-invalid="true"');
      return response.body;
    };
    // The same page but for the echoed code (the same clock and cookie give the same form token).
    const withoutCode = (page: string, shown: string) => page.replace(`value="${shown}"`, 'value=""');
    const unknown = withoutCode(await typed('zzzz zzzz'), 'ZZZZ-ZZZZ');
    expect(withoutCode(await typed('not-a-code'), 'not-a-code')).toBe(unknown);
    expect(withoutCode(await typed(decided.user_code.toLowerCase()), decided.user_code)).toBe(unknown);

    const expiring = await start(tv);
    h.t.clock.advance(15 * MINUTE_MS);
    const expired = withoutCode(await typed(expiring.user_code), expiring.user_code);
    expect(expired).toBe(withoutCode(await typed('zzzz zzzz'), 'ZZZZ-ZZZZ'));

    const empty = await b.post('/device/verify', { user_code: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain(HOSTED_MESSAGES.deviceCodeRequired);
  });

  it('signs in between, shows the approval, and the device polls its tokens exactly once', async () => {
    const started = await start(tv);
    const { b, user, page } = await atApproval(started);
    expect(page.body).toMatch(new RegExp(`Signed in as\\s*<strong>${user.email}</strong\\s*>`));
    expect(page.body).toContain('See your email address');
    expect(page.body).not.toContain('registered itself');
    expect(page.body).toContain(`<form method="post" action="${h.authBase}/device/approve">`);
    expect(page.body).toContain(`formaction="${h.authBase}/device/deny"`);
    expect(Object.keys(b.fields).sort()).toEqual(['_csrf', 'request_id']);
    expect((await poll(tv, started)).body.error).toBe('authorization_pending');

    h.t.clock.advance(10_000);
    const approved = await b.post('/device/approve');
    expect(approved.statusCode).toBe(200);
    expect(approved.body).toContain(heading('Device connected'));
    expect(approved.body).toContain('You can return to your device.');

    const tokens = await poll(tv, started);
    expect(tokens.status).toBe(200);
    expect(tokens.body.scope).toBe('openid profile email');
    expect(decodeJwt(String(tokens.body.access_token))).toMatchObject({
      sub: user.id,
      client_id: tv.clientId,
    });
    expect(decodeJwt(String(tokens.body.id_token))).toMatchObject({ sub: user.id, amr: ['pwd'] });
    h.t.clock.advance(10_000);
    expect(await poll(tv, started)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // The approval is the consent: no grant is recorded; the request is over.
    expect((await h.t.svc.admin.listUserGrantsAsync(user.id)).data).toEqual([]);
    expect((await b.get(`${h.authBase}/login?request_id=${requestIdOf(b)}`)).body).toContain(EXPIRED_REQUEST);
  });

  it('a user of several organizations chooses one, and the device gets a session in it', async () => {
    const user = await h.given.user();
    await h.given.organization(`Northwind ${kind}`, user.id);
    const chosen = await h.given.organization(`Contoso ${kind}`, user.id);
    const started = await start(tv);
    const { b, response } = await verify(started);
    const choice = await b.signIn(response, user.email, HOSTED_PASSWORD);
    expect(choice.body).toContain(heading('Choose an organization'));
    const page = await b.follow(await b.post('/login/select-organization', { organization_id: chosen.id }));
    expect(isApproval(page, started.user_code)).toBe(true);
    expect(page.body).toContain(`<strong>Contoso ${kind}</strong>`);

    expect((await b.post('/device/approve')).statusCode).toBe(200);
    const tokens = await poll(tv, started);
    expect(decodeJwt(String(tokens.body.access_token))).toMatchObject({ sub: user.id, org_id: chosen.id });
  });

  it('a browser signed in already goes straight to the approval, which still has to be approved', async () => {
    const first = await start(tv);
    const { b, user } = await atApproval(first);
    await b.post('/device/approve');

    const second = await start(tv);
    const { response } = await verify(second, b);
    const page = await b.follow(response);
    expect(isApproval(page, second.user_code)).toBe(true);
    expect(page.body).toContain(`<strong>${user.email}</strong`);
    expect((await poll(tv, second)).body.error).toBe('authorization_pending');
    await b.post('/device/approve');
    expect(decodeJwt(String((await poll(tv, second)).body.access_token)).sub).toBe(user.id);
  });

  it('deny ends the request and the device poll answers access_denied', async () => {
    const started = await start(tv);
    const { b } = await atApproval(started);
    const approvalForm = { ...b.fields };
    const denied = await b.post('/device/deny');
    expect(denied.statusCode).toBe(200);
    expect(denied.body).toContain(heading('Request denied'));
    expect(await poll(tv, started)).toMatchObject({ status: 400, body: { error: 'access_denied' } });
    expect((await b.post('/device/approve', approvalForm)).body).toContain(EXPIRED_REQUEST);
  });

  it('the consent posts never issue a code for a device request: they lead back to its approval', async () => {
    const started = await start(tv);
    const { b } = await atApproval(started);
    const requestId = requestIdOf(b);
    for (const path of ['/consent/approve', '/consent/deny']) {
      const response = await b.post(path);
      expect(response.statusCode, path).toBe(303);
      expect(response.headers.location, path).toBe(`${h.authBase}/login?request_id=${requestId}`);
      expect(isApproval(await b.follow(response), started.user_code), path).toBe(true);
    }
    expect((await poll(tv, started)).body.error).toBe('authorization_pending');
    expect((await b.post('/device/approve')).statusCode).toBe(200);
  });

  it('GET /device/approve shows a signed-in request its approval and sends any other to its current step', async () => {
    const started = await start(tv);
    const { b, response } = await verify(started);
    const requestId = InjectBrowser.location(response).searchParams.get('request_id') ?? '';
    const approvePage = `${h.authBase}/device/approve?request_id=${requestId}`;
    const early = await b.get(approvePage);
    expect(early.statusCode).toBe(302);
    expect(early.headers.location).toBe(`${h.authBase}/login?request_id=${requestId}`);

    const user = await h.given.user();
    const viaLogin = await b.signIn(response, user.email, HOSTED_PASSWORD);
    const direct = await b.get(approvePage);
    expect(isApproval(direct, started.user_code)).toBe(true);
    expect(direct.body).toBe(viaLogin.body);
  });

  it('another browser can neither see nor decide the request', async () => {
    const started = await start(tv);
    const { b } = await atApproval(started);
    const requestId = requestIdOf(b);
    const other = new InjectBrowser(h);
    expect((await other.get(`${h.authBase}/device/approve?request_id=${requestId}`)).body).toContain(
      EXPIRED_REQUEST,
    );
    for (const path of ['/device/approve', '/device/deny']) {
      // A page of its own gives the other browser a valid form token; the request is still not its own.
      await other.get(`${h.authBase}/device`);
      const response = await other.post(path, { request_id: requestId });
      expect(response.statusCode, path).toBe(400);
      expect(response.body, path).toContain(EXPIRED_REQUEST);
    }
    expect((await poll(tv, started)).body.error).toBe('authorization_pending');
  });

  it('a code decided in another tab, or expired meanwhile, ends with a page that says so', async () => {
    const started = await start(tv);
    const { b: tab } = await atApproval(started);
    const firstTab = { ...tab.fields };
    // The same browser opens the code again (signed in now) and approves there.
    const { response } = await verify(started, tab);
    expect(isApproval(await tab.follow(response), started.user_code)).toBe(true);
    expect((await tab.post('/device/approve')).statusCode).toBe(200);
    const late = await tab.post('/device/approve', firstTab);
    expect(late.statusCode).toBe(400);
    expect(late.body).toContain(heading('This device request was already answered'));

    const expiring = await start(tv);
    const { b } = await atApproval(expiring);
    const requestId = requestIdOf(b);
    h.t.clock.advance(15 * MINUTE_MS);
    const approve = await b.post('/device/approve');
    expect(approve.statusCode).toBe(400);
    expect(approve.body).toContain(heading('This code has expired'));
    const reload = await b.get(`${h.authBase}/login?request_id=${requestId}`);
    expect(reload.statusCode).toBe(400);
    expect(reload.body).toContain(heading('This code has expired'));
    expect((await poll(tv, expiring)).body.error).toBe('expired_token');
  });

  it('asks for the second factor of a user with an authenticator before the approval; the device gets its amr', async () => {
    const user = await h.given.user();
    const app = await selfEnroll(h.t.svc.auth, h.t.clock, user.id);
    h.t.clock.advance(TOTP_STEP_MS);
    const started = await start(tv);
    const { b, response } = await verify(started);
    const challenge = await b.signIn(response, user.email, HOSTED_PASSWORD);
    expect(challenge.body).toContain(heading('Two-step verification'));
    const page = await b.follow(await b.post('/mfa/verify', { code: app.code() }));
    expect(isApproval(page, started.user_code)).toBe(true);
    await b.post('/device/approve');
    const tokens = await poll(tv, started);
    expect(decodeJwt(String(tokens.body.id_token)).amr).toEqual(['pwd', 'otp', 'mfa']);
  });
});

describe('hosted device pages: the per-IP limit on typed codes', () => {
  let h: HostedTestApp;
  let tv: SvcCreatedClient;
  const { start, verify } = deviceActors(() => h);

  beforeAll(async () => {
    h = await createHostedTestApp();
    tv = await h.given.client({ allowDeviceAuthorization: true });
  });
  afterAll(async () => {
    await h.close();
  });

  it('counts every typed code: the eleventh in 15 minutes is refused (429), even a valid one, until the window passes', async () => {
    const b = new InjectBrowser(h);
    await b.get(`${h.authBase}/device`);
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect((await b.post('/device/verify', { user_code: 'ZZZZ-ZZZZ' })).statusCode).toBe(400);
    }
    const started = await start(tv);
    const refused = await b.post('/device/verify', { user_code: started.user_code });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body).toContain(HOSTED_MESSAGES.deviceCodeRateLimited);
    expect(prefilledCode(refused.body)).toBe(started.user_code);

    h.t.clock.advance(15 * MINUTE_MS);
    const { response } = await verify(await start(tv), b);
    expect(response.statusCode).toBe(303);
  });
});

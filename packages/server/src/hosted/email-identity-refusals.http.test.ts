import type { SvcCreatedClient, SvcHeadlessActionResult } from '@svc/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { STEP_ERROR_MESSAGES } from '../signin/flow/step-error-messages.js';
import { authorizeQuery } from '../test-support/authorize-params.js';
import { describeAboveStorage } from '../test-support/databases.js';
import { HeadlessBrowser, headlessStartBody } from '../test-support/headless-browser.js';
import { createHostedTestApp, type HostedTestApp } from '../test-support/hosted-test-app.js';
import { InjectBrowser } from '../test-support/inject-browser.js';

// A dotless ı (U+0131) before the @: upper-cased, it used to be the key of admin@example.com.
const LOOKALIKE = 'admın@example.com';
const WORDS = STEP_ERROR_MESSAGES.email_not_ascii;

/**
 * Addresses that are not ASCII before the @ (docs/decisions/admin-email-identity-ascii-exact.md) on the hosted
 * pages and the headless API: the form comes back (400) with words that say what to do, and nothing is
 * sent or looked up for the account the address upper-cases to.
 */
describeAboveStorage('hosted and headless refusals of addresses not ASCII before the @', (kind) => {
  let h: HostedTestApp;
  let web: SvcCreatedClient;
  beforeAll(async () => {
    h = await createHostedTestApp(kind);
    web = await h.given.client();
    await h.given.user('admin@example.com');
  });
  afterAll(() => h.close());

  const refusedPage = (response: LightMyRequestResponse) => {
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain(WORDS);
  };

  it('the hosted identify, email sign-in, signup and forgot-password forms', async () => {
    const b = new InjectBrowser(h);
    await b.follow(await b.authorize(authorizeQuery(web.clientId)));
    refusedPage(await b.post('/login/identify', { email: LOOKALIKE }));

    const email = new InjectBrowser(h);
    await email.follow(await email.authorize(authorizeQuery(web.clientId, { view: 'email-otp' })));
    refusedPage(await email.post('/login/email-otp/start', { email: LOOKALIKE }));

    const signup = new InjectBrowser(h);
    await signup.follow(await signup.authorize(authorizeQuery(web.clientId)));
    await signup.click('Create an account');
    refusedPage(
      await signup.post('/signup/submit', {
        display_name: 'Mallory',
        email: LOOKALIKE,
        password: 'a long enough password',
      }),
    );

    const forgot = new InjectBrowser(h);
    await forgot.get(`${h.authBase}/password/forgot`);
    refusedPage(await forgot.post('/password/forgot/submit', { email: LOOKALIKE }));
    expect(await h.auditEvents('password_reset.requested')).toEqual([]);
  });

  it('the headless identify, email code, signup and forgot-password actions', async () => {
    const b = new HeadlessBrowser(h);
    const started = (await b.post('/start', headlessStartBody(web.clientId))).json<SvcHeadlessActionResult>();
    const requestId = started.viewModel?.requestId ?? '';
    const refused = async (path: string, body: Record<string, unknown>) => {
      const response = await b.post(path, { requestId, ...body });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ error: 'email_not_ascii', message: WORDS });
    };
    await refused('/identify', { email: LOOKALIKE });
    await refused('/email-otp/start', { email: LOOKALIKE });
    await refused('/signup', {
      displayName: 'Mallory',
      email: LOOKALIKE,
      password: 'a long enough password',
    });
    await refused('/password/forgot', { email: LOOKALIKE });
  });
});

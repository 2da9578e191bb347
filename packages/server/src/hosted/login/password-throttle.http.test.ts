import {
  headlessActionResultSchema,
  type SvcCreatedClient,
  type SvcHeadlessActionResult,
  type SvcOrganization,
} from '@svc/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MINUTE_MS } from '../../kernel/clock.js';
import { authorizeQuery, CLIENT_REDIRECT_URI, pkcePair } from '../../test-support/authorize-params.js';
import { describeAboveStorage } from '../../test-support/databases.js';
import { HeadlessBrowser } from '../../test-support/headless-browser.js';
import {
  createMailedHostedTestApp,
  HOSTED_PASSWORD,
  uniqueName,
  type MailedHostedTestApp,
} from '../../test-support/hosted-test-app.js';
import { InjectBrowser, setCookies } from '../../test-support/inject-browser.js';
import { inviteToken } from '../../test-support/invitations.js';
import { HOSTED_MESSAGES } from '../form.js';
import { INVITATION_MESSAGES } from '../invitations/invitation-pages.js';

const WRONG = 'not the password';
const REFUSED = 'Too many failed sign-in attempts. Try again in 1 minute.';

type Result = SvcHeadlessActionResult & { readonly error?: string; readonly message?: string };

/**
 * The limits on password guessing (docs/reference/limits.md "Secret checks") on the browser surfaces: the hosted
 * password step and invitation page re-render with when to retry (429, Retry-After), the headless
 * password and invitation actions answer 429 with the view and `too_many_attempts`; all of them share
 * the counters of one account and address.
 */
describeAboveStorage('password guessing limits (hosted and headless)', (kind) => {
  let h: MailedHostedTestApp;
  let web: SvcCreatedClient;
  let org: SvcOrganization;

  beforeAll(async () => {
    h = await createMailedHostedTestApp(kind);
    web = await h.given.client();
    org = await h.given.organization();
  });
  afterAll(async () => {
    await h?.close();
  });

  /** A hosted browser at the password step for `email`. */
  async function atPassword(email: string): Promise<InjectBrowser> {
    const b = new InjectBrowser(h);
    await b.follow(await b.authorize(authorizeQuery(web.clientId)));
    expect((await b.follow(await b.post('/login/identify', { email }))).body).toContain(
      'Enter your password',
    );
    return b;
  }

  /** A headless request of a new browser, identified as `email`: the browser and the request id. */
  async function headlessAtPassword(email: string) {
    const b = new HeadlessBrowser(h);
    const started = await b.post('/start', {
      responseType: 'code',
      clientId: web.clientId,
      redirectUri: CLIENT_REDIRECT_URI,
      codeChallenge: pkcePair().challenge,
      codeChallengeMethod: 'S256',
      scope: 'openid',
    });
    const requestId = resultOf(started).viewModel?.requestId ?? '';
    resultOf(await b.post('/identify', { requestId, email }));
    return { b, requestId };
  }

  function resultOf(response: LightMyRequestResponse, status = 200): Result {
    expect(response.statusCode, response.body.slice(0, 300)).toBe(status);
    const body = response.json<Result>();
    headlessActionResultSchema.parse(body);
    return body;
  }

  /** An invitation for `email`; its token from the mailed link. */
  async function invite(email: string): Promise<string> {
    await h.t.svc.auth.createEmailInvitationAsync({
      organizationId: org.id,
      email,
      role: 'editor',
      clientId: web.clientId,
      redirectUri: CLIENT_REDIRECT_URI,
    });
    return inviteToken(h.smtp.to(email).at(-1)?.text ?? '');
  }

  /** The last page of a browser with what differs between browsers and accounts blanked out. */
  const comparable = (b: InjectBrowser, email: string) =>
    b.page
      .replaceAll(email, 'EMAIL')
      .replaceAll(b.fields.request_id ?? '', 'REQUEST')
      .replace(/value="[^"]*"/g, 'value=""');

  it('the hosted password step shows when to retry (429, Retry-After) and keeps its form; known and unknown emails alike', async () => {
    const user = await h.given.user();
    const pages: string[] = [];
    for (const email of [user.email, `${uniqueName('nobody')}@example.com`]) {
      const b = await atPassword(email);
      for (let i = 0; i < 5; i += 1) {
        const failed = await b.post('/login/password', { password: WRONG });
        expect(failed.statusCode).toBe(400);
        expect(failed.body).toContain(HOSTED_MESSAGES.invalidCredentials);
      }
      const refused = await b.post('/login/password', { password: HOSTED_PASSWORD });
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('60');
      expect(refused.headers['content-type']).toMatch(/^text\/html/);
      expect(refused.body).toContain(REFUSED);
      expect(refused.body).not.toContain(HOSTED_MESSAGES.invalidCredentials);
      expect(refused.body).toContain(`action="${h.authBase}/login/password"`);
      expect(setCookies(refused).map((c) => c.name)).not.toContain('svc_session');
      pages.push(comparable(b, email));
    }
    expect(pages[0]).toBe(pages[1]);

    const [event] = (await h.auditEvents('auth.password.throttled')).filter((e) => e.userId === user.id);
    expect(event).toMatchObject({ clientId: web.clientId, ipAddress: '127.0.0.1' });
    expect(JSON.parse(event?.dataJson ?? '{}')).toEqual({
      route: 'authorize',
      rules: ['password.account-ip'],
      retryAfterSeconds: 60,
    });
  });

  it('after the wait the hosted step signs in with the password', async () => {
    const user = await h.given.user();
    const b = await atPassword(user.email);
    for (let i = 0; i < 5; i += 1) await b.post('/login/password', { password: WRONG });
    expect((await b.post('/login/password', { password: HOSTED_PASSWORD })).statusCode).toBe(429);
    h.t.clock.advance(MINUTE_MS);
    const done = await b.post('/login/password', { password: HOSTED_PASSWORD });
    expect(done.statusCode).toBe(303);
    expect(InjectBrowser.location(done).searchParams.get('code')).toBeTruthy();
  });

  it('headless /password/login answers 429 with Retry-After, the password view and too_many_attempts', async () => {
    const user = await h.given.user();
    const { b, requestId } = await headlessAtPassword(user.email);
    for (let i = 0; i < 5; i += 1) {
      const failed = resultOf(await b.post('/password/login', { requestId, password: WRONG }), 400);
      expect(failed.error).toBe('invalid_credentials');
    }
    const response = await b.post('/password/login', { requestId, password: HOSTED_PASSWORD });
    expect(response.headers['retry-after']).toBe('60');
    expect(resultOf(response, 429)).toMatchObject({
      type: 'view',
      error: 'too_many_attempts',
      message: REFUSED,
      viewModel: { view: 'password', requestId, email: user.email },
    });
    // The hosted pages count against the same account and address.
    const hosted = await atPassword(user.email);
    expect((await hosted.post('/login/password', { password: HOSTED_PASSWORD })).statusCode).toBe(429);
  });

  it('hosted invitation acceptance with a password shows when to retry (429, Retry-After)', async () => {
    const user = await h.given.user();
    const token = await invite(user.email);
    const b = new InjectBrowser(h);
    await b.get(`${h.authBase}/invitations/accept?token=${token}`);
    for (let i = 0; i < 5; i += 1) {
      const failed = await b.post('/invitations/accept/password', { password: WRONG });
      expect(failed.statusCode).toBe(400);
      expect(failed.body).toContain(INVITATION_MESSAGES.invalid_credentials);
    }
    const refused = await b.post('/invitations/accept/password', { password: HOSTED_PASSWORD });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.body).toContain(REFUSED);
    expect(refused.body).toContain(`action="${h.authBase}/invitations/accept/password"`);
    expect(setCookies(refused).map((c) => c.name)).not.toContain('svc_session');

    const [event] = (await h.auditEvents('auth.password.throttled')).filter((e) => e.userId === user.id);
    expect(JSON.parse(event?.dataJson ?? '{}')).toMatchObject({ route: 'invitation acceptance' });
    const invitation = await h.t.svc.database.db
      .selectFrom('invitations')
      .select('status')
      .where('email', '=', user.email)
      .executeTakeFirstOrThrow();
    expect(invitation.status).toBe('pending');
  });

  it('headless /invitations/login answers 429 with Retry-After and the invite-login view', async () => {
    const user = await h.given.user();
    const invitationToken = await invite(user.email);
    const { b, requestId } = await headlessAtPassword(`${uniqueName('other')}@example.com`);
    for (let i = 0; i < 5; i += 1) {
      const failed = resultOf(
        await b.post('/invitations/login', { requestId, invitationToken, password: WRONG }),
        400,
      );
      expect(failed.error).toBe('invalid_credentials');
    }
    const response = await b.post('/invitations/login', {
      requestId,
      invitationToken,
      password: HOSTED_PASSWORD,
    });
    expect(response.headers['retry-after']).toBe('60');
    expect(resultOf(response, 429)).toMatchObject({
      error: 'too_many_attempts',
      message: REFUSED,
      viewModel: { view: 'invite-login', invitation: { email: user.email, acceptWith: 'password' } },
    });
  });
});

import type { SvcCreatedClient, SvcOrganization } from '@svc/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { MINUTE_MS } from '../../kernel/clock.js';
import { STEP_ERROR_MESSAGES } from '../../signin/flow/step-error-messages.js';
import { authorizeQuery, pkcePair } from '../../test-support/authorize-params.js';
import { describeAboveStorage } from '../../test-support/databases.js';
import {
  createMailedHostedTestApp,
  HOSTED_PASSWORD,
  uniqueName,
  type MailedHostedTestApp,
} from '../../test-support/hosted-test-app.js';
import { InjectBrowser } from '../../test-support/inject-browser.js';
import {
  exchangeAtToken,
  invitationState,
  operatorInvitation,
  revokeInvitation,
} from '../../test-support/invitation-flow.js';
import { codeIn, linkIn } from '../../test-support/outbox.js';
import { endedSession, probeSession } from '../../test-support/session-probe.js';
import { silentCode, squatAccount } from '../../test-support/squatter.js';

/**
 * GET /authorize?invitation_token= through the hosted pages: the request is bound to the invitation,
 * its sign-in page is the invitation's (the invited address only), and the code it ends with is scoped
 * to the invitation's organization; the invitation is used once.
 */
describeAboveStorage('hosted invitation-bound authorization', (kind) => {
  let h: MailedHostedTestApp;
  let web: SvcCreatedClient;
  let other: SvcCreatedClient;
  let org: SvcOrganization;

  beforeAll(async () => {
    h = await createMailedHostedTestApp(kind);
    web = await h.given.client();
    other = await h.given.client();
    org = await h.given.organization('Acme Corp');
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(() => {
    h.t.clock.advance(16 * MINUTE_MS);
  });

  /** The page's text without markup, whitespace runs collapsed. */
  const text = (response: LightMyRequestResponse) =>
    response.body.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

  /** Opens /authorize with the invitation token (under `parameter`) and follows to its first page. */
  async function open(token: string, parameter = 'invitation_token', client = web) {
    const b = new InjectBrowser(h);
    const pkce = pkcePair();
    const query = authorizeQuery(client.clientId, { scope: 'openid', [parameter]: token }, pkce.challenge);
    const page = await b.follow(await b.authorize(query));
    return { b, pkce, page };
  }

  /** The code of a redirect to the client, exchanged at /token: the access token's claims. */
  async function exchanged(response: LightMyRequestResponse, verifier: string) {
    const code = InjectBrowser.location(response).searchParams.get('code') ?? '';
    return exchangeAtToken(h, web.clientId, code, verifier);
  }

  it('a new address creates its account on the invitation page; the code is scoped to the organization; the link is then used up', async () => {
    const email = `${uniqueName('new')}@example.com`;
    const invitation = await operatorInvitation(h, org.id, email, { clientId: web.clientId });
    const { b, pkce, page } = await open(invitation.token);
    expect(page.statusCode).toBe(200);
    expect(text(page)).toContain('You are invited to join Acme Corp as editor');
    expect(page.body).toContain(`action="${h.authBase}/login/invitation/signup"`);
    expect(b.fields.token).toBeUndefined();

    const blank = await b.post('/login/invitation/signup', { display_name: ' ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.body).toContain(STEP_ERROR_MESSAGES.display_name_required);
    const done = await b.follow(await b.post('/login/invitation/signup', { display_name: 'Dee' }));
    const claims = await exchanged(done, pkce.verifier);
    expect(claims.org_id).toBe(org.id);
    expect(await invitationState(h, invitation.id, String(claims.sub))).toEqual({
      status: 'accepted',
      acceptedUserId: claims.sub,
      role: 'editor',
    });
    const user = await h.t.svc.database.db
      .selectFrom('users')
      .select(['email', 'emailVerified', 'passwordHash'])
      .where('id', '=', String(claims.sub))
      .executeTakeFirstOrThrow();
    expect(user).toEqual({ email, emailVerified: 1, passwordHash: null });

    const again = await open(invitation.token);
    expect(again.page.statusCode).toBe(400);
    expect(again.page.body).toContain('This invitation is no longer valid');
  });

  it('an account in other organizations (invitationToken spelling): a wrong password comes back on the invitation page; its password completes in the invited organization', async () => {
    const user = await h.given.user();
    await h.given.organization(undefined, user.id);
    await h.given.organization(undefined, user.id);
    const invitation = await operatorInvitation(h, org.id, user.email, { role: 'admin' });
    const { b, pkce, page } = await open(invitation.token, 'invitationToken');
    expect(page.body).toContain(`action="${h.authBase}/login/password"`);
    expect(page.body).toMatch(new RegExp(`id="email"[^>]*readonly[^>]*value="${user.email}"`, 's'));

    const wrong = await b.post('/login/password', { password: 'not it' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain(STEP_ERROR_MESSAGES.invalid_credentials);
    expect(text(wrong)).toContain('You are invited to join Acme Corp as admin');
    const done = await b.follow(await b.post('/login/password', { password: HOSTED_PASSWORD }));
    expect(await exchanged(done, pkce.verifier)).toMatchObject({ sub: user.id, org_id: org.id });
    expect(await invitationState(h, invitation.id, user.id)).toMatchObject({
      status: 'accepted',
      role: 'admin',
    });
  });

  it('an account without a password gets a code at the invited address, which completes', async () => {
    const email = `${uniqueName('nopw')}@example.com`;
    const user = await h.t.svc.admin.createUserAsync({ displayName: 'No Password', email, password: null });
    const invitation = await operatorInvitation(h, org.id, email);
    const { b, pkce, page } = await open(invitation.token);
    expect(page.body).toContain(`action="${h.authBase}/login/email-otp/start"`);
    expect(b.fields.email).toBe(email);
    const enterCode = await b.follow(await b.post('/login/email-otp/start'));
    expect(enterCode.statusCode).toBe(200);
    const code = codeIn(h.smtp.to(email).at(-1)?.text ?? null);
    const done = await b.follow(await b.post('/login/email-otp/verify', { code }));
    expect(await exchanged(done, pkce.verifier)).toMatchObject({ sub: user.id, org_id: org.id });
    expect((await invitationState(h, invitation.id, user.id)).status).toBe('accepted');
  });

  it("an invitation into an account a squatter signed up with the address: the owner's reset claims it before joining", async () => {
    const email = `${uniqueName('squatted')}@example.com`;
    const squatter = await squatAccount(h, web.clientId, email);
    const invitation = await operatorInvitation(h, org.id, email);
    // The owner does not know the squatter's password: the reset link mailed to the address proves it.
    await h.t.svc.auth.requestPasswordResetEmailAsync({ email, clientId: null });
    const link = new URL(linkIn(h.smtp.to(email).at(-1)?.text ?? null));
    await h.t.svc.auth.resetPasswordAsync({
      token: link.searchParams.get('token') ?? '',
      newPassword: 'the owner chose this one',
    });

    const { b, pkce } = await open(invitation.token);
    // The squatter's authenticator went with the claim: no second factor stands before the organization.
    const done = await b.follow(await b.post('/login/password', { password: 'the owner chose this one' }));
    expect(await exchanged(done, pkce.verifier)).toMatchObject({ sub: squatter.id, org_id: org.id });
    expect(await h.t.svc.auth.listMfaAuthenticatorsAsync(squatter.id)).toEqual([]);
    expect(await probeSession(h.t.svc, squatter.tokens, web)).toEqual(endedSession());
    expect(await silentCode(squatter.browser, web.clientId)).toBeNull();
  });

  it('signing up another address on the request is refused: nothing is accepted, nobody is signed in', async () => {
    const invitation = await operatorInvitation(h, org.id, `${uniqueName('invited')}@example.com`);
    const { b } = await open(invitation.token);
    await b.get(`${h.authBase}/signup?request_id=${b.fields.request_id ?? ''}`);
    const otherEmail = `${uniqueName('other')}@example.com`;
    const refused = await b.post('/signup/submit', {
      display_name: 'Other',
      email: otherEmail,
      password: HOSTED_PASSWORD,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain(STEP_ERROR_MESSAGES.invitation_other_account);
    expect(refused.body).toContain(`action="${h.authBase}/login/invitation/signup"`);
    expect(b.cookies.get('svc_session')).toBeUndefined();
    const otherUser = await h.t.svc.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', otherEmail)
      .executeTakeFirstOrThrow();
    expect(await invitationState(h, invitation.id, otherUser.id)).toEqual({
      status: 'pending',
      acceptedUserId: null,
      role: undefined,
    });
  });

  it('an unusable token is the "no longer valid" page; prompt=none is interaction_required at the client', async () => {
    const revoked = await operatorInvitation(h, org.id, `${uniqueName('r')}@example.com`);
    await revokeInvitation(h, revoked.id);
    const forWeb = await operatorInvitation(h, org.id, `${uniqueName('w')}@example.com`, {
      clientId: web.clientId,
    });
    const pages = [
      (await open('not-a-token')).page,
      (await open(revoked.token)).page,
      (await open(forWeb.token, 'invitation_token', other)).page,
    ];
    for (const page of pages) {
      expect(page.statusCode).toBe(400);
      expect(page.body).toContain('This invitation is no longer valid');
    }

    const b = new InjectBrowser(h);
    const silent = await b.authorize(
      authorizeQuery(web.clientId, { invitation_token: forWeb.token, prompt: 'none' }),
    );
    expect(InjectBrowser.location(silent).searchParams.get('error')).toBe('interaction_required');
    expect((await invitationState(h, forWeb.id, undefined)).status).toBe('pending');
  });
});

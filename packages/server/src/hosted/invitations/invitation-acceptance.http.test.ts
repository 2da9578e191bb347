import type { SvcCreatedClient, SvcOrganization } from '@svc/contract';
import type { LightMyRequestResponse } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DAY_MS } from '../../kernel/clock.js';
import { authorizeQuery, CLIENT_REDIRECT_URI, pkcePair } from '../../test-support/authorize-params.js';
import { describeAboveStorage } from '../../test-support/databases.js';
import {
  createMailedHostedTestApp,
  HOSTED_PASSWORD,
  uniqueName,
  type MailedHostedTestApp,
} from '../../test-support/hosted-test-app.js';
import { InjectBrowser, setCookies } from '../../test-support/inject-browser.js';
import { linkIn } from '../../test-support/outbox.js';
import { INVITATION_MESSAGES } from './invitation-pages.js';

const API = '/svc/admin/auth/api';

describeAboveStorage('hosted invitation pages', (kind) => {
  let h: MailedHostedTestApp;
  let web: SvcCreatedClient;
  let org: SvcOrganization;

  beforeAll(async () => {
    h = await createMailedHostedTestApp(kind);
    web = await h.given.client();
    org = await h.given.organization('Acme Corp');
  });
  afterAll(async () => {
    await h?.close();
  });

  const db = () => h.t.svc.database.db;
  /** The page's markup with whitespace runs collapsed, so that assertions do not depend on line breaks. */
  const flat = (response: LightMyRequestResponse) => response.body.replace(/\s+/g, ' ');
  const operator = (url: string, payload?: object) =>
    h.inject({
      method: 'POST',
      url: `${API}${url}`,
      headers: h.t.operator,
      ...(payload === undefined ? {} : { payload }),
    });

  /** An invitation by the operator API for `email` (a new address by default); its id and mailed link. */
  async function invite(email = `${uniqueName('invitee')}@example.com`, role = 'editor') {
    const created = await operator(`/organizations/${org.id}/invitations`, {
      email,
      role,
      clientId: web.clientId,
      redirectUri: CLIENT_REDIRECT_URI,
    });
    expect(created.statusCode).toBe(201);
    const id = (created.json() as { id: string }).id;
    return { id, email, link: lastLinkTo(email) };
  }
  const lastLinkTo = (email: string) => new URL(linkIn(h.smtp.to(email).at(-1)?.text ?? null));
  const invitation = (id: string) =>
    db().selectFrom('invitations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const membership = (userId: string) =>
    db()
      .selectFrom('memberships')
      .selectAll()
      .where('organizationId', '=', org.id)
      .where('userId', '=', userId)
      .executeTakeFirst();

  /** A browser signed in at the issuer (svc_session) as `email`. */
  async function signedInAs(email: string): Promise<InjectBrowser> {
    const b = new InjectBrowser(h);
    const done = await b.signIn(await b.authorize(authorizeQuery(web.clientId)), email, HOSTED_PASSWORD);
    expect(InjectBrowser.location(done).searchParams.get('code')).toBeTruthy();
    expect(b.cookies.get('svc_session')).toBeTruthy();
    return b;
  }

  /** Follows a 303 to the joined page and checks it. */
  async function expectJoined(b: InjectBrowser, response: LightMyRequestResponse, id: string) {
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`${h.authBase}/invitations/accepted?invitation_id=${id}`);
    const page = await b.follow(response);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('You have joined Acme Corp');
    expect(b.linkHref(`Continue to ${web.name}`)).toBe(CLIENT_REDIRECT_URI);
    return page;
  }

  it('every unusable invitation (unknown, missing, revoked, resent, used, expired) gets the same "no longer valid" page, forms too', async () => {
    const b = new InjectBrowser(h);
    const pages: LightMyRequestResponse[] = [];
    pages.push(await b.get(`${h.authBase}/invitations/accept?token=unknown-token`));
    pages.push(await b.get(`${h.authBase}/invitations/accept`));

    const revoked = await invite();
    expect((await operator(`/invitations/${revoked.id}/revoke`, { reason: 'mistake' })).statusCode).toBe(200);
    pages.push(await b.get(revoked.link.toString()));

    const resent = await invite();
    h.t.clock.advance(DAY_MS);
    expect((await operator(`/invitations/${resent.id}/resend`)).statusCode).toBe(200);
    pages.push(await b.get(resent.link.toString()));
    expect((await b.get(lastLinkTo(resent.email).toString())).statusCode).toBe(200);

    const used = await invite();
    await b.get(used.link.toString());
    await expectJoined(b, await b.post('/invitations/accept/signup', { display_name: 'Used' }), used.id);
    pages.push(await b.get(used.link.toString()));

    // A form of a live invitation, posted after the invitation died.
    const late = await invite();
    const other = new InjectBrowser(h);
    await other.get(late.link.toString());
    // The page's fields (antiforgery token and invitation token), kept: each refusal replaces the page.
    const form = other.fields;
    expect((await operator(`/invitations/${late.id}/revoke`, {})).statusCode).toBe(200);
    pages.push(await other.post('/invitations/accept/signup', { ...form, display_name: 'Late' }));
    pages.push(await other.post('/invitations/accept/password', { ...form, password: HOSTED_PASSWORD }));
    pages.push(await other.post('/invitations/accept', form));

    const expired = await invite();
    h.t.clock.advance(8 * DAY_MS);
    pages.push(await b.get(expired.link.toString()));

    const [first] = pages;
    expect(first?.body).toContain('This invitation is no longer valid');
    for (const page of pages) {
      expect(page.statusCode).toBe(400);
      expect(page.body).toBe(first?.body);
    }
    expect((await invitation(late.id)).status).toBe('revoked');
  });

  it('signed in as the invited address: one click joins (membership, verified email), continues to the client, and uses the link up', async () => {
    const user = await h.given.user();
    const b = await signedInAs(user.email);
    const { id, link } = await invite(user.email, 'Admin');
    const page = await b.get(link.toString());
    expect(page.statusCode).toBe(200);
    expect(flat(page)).toContain('Join Acme Corp as admin');
    expect(b.fields.token).toBe(link.searchParams.get('token'));
    expect((await invitation(id)).status).toBe('pending');

    await expectJoined(b, await b.post('/invitations/accept'), id);
    expect(await invitation(id)).toMatchObject({ status: 'accepted', acceptedUserId: user.id });
    expect(await membership(user.id)).toMatchObject({ role: 'admin', active: 1 });
    const row = await db()
      .selectFrom('users')
      .select('emailVerified')
      .where('id', '=', user.id)
      .executeTakeFirst();
    expect(row?.emailVerified).toBe(1);
    expect((await b.get(link.toString())).statusCode).toBe(400);
  });

  it('signed in as another account: the one-click form does not accept for it; a wrong password is a generic 400; the invited password joins and replaces the session', async () => {
    const invited = await h.given.user();
    const someoneElse = await h.given.user();
    const b = await signedInAs(someoneElse.email);
    const previousSession = b.cookies.get('svc_session');
    const { id, link } = await invite(invited.email);

    const page = await b.get(link.toString());
    expect(flat(page)).toContain(`You are signed in as ${someoneElse.email}.`);
    expect(page.body).toContain(`action="${h.authBase}/invitations/accept/password"`);
    // The one-click form posted anyway (a forged or stale page): nothing is accepted for this account.
    const forged = await b.post('/invitations/accept');
    expect(forged.statusCode).toBe(400);
    expect(forged.body).toContain(INVITATION_MESSAGES.not_signed_in);
    expect((await invitation(id)).status).toBe('pending');
    expect(await membership(someoneElse.id)).toBeUndefined();

    const wrong = await b.post('/invitations/accept/password', { password: 'not the password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain(INVITATION_MESSAGES.invalid_credentials);
    expect(setCookies(wrong).map((c) => c.name)).not.toContain('svc_session');
    const empty = await b.post('/invitations/accept/password', { password: '' });
    expect(empty.body).toContain(INVITATION_MESSAGES.password_required);
    const failures = await h.auditEvents('invitation.sign_in.failed');
    expect(failures.at(-1)).toMatchObject({ organizationId: org.id, clientId: web.clientId, userId: null });

    const joined = await b.post('/invitations/accept/password', { password: HOSTED_PASSWORD });
    await expectJoined(b, joined, id);
    expect(await invitation(id)).toMatchObject({ status: 'accepted', acceptedUserId: invited.id });
    expect(await membership(invited.id)).toMatchObject({ role: 'editor' });
    expect(await membership(someoneElse.id)).toBeUndefined();
    const { browserSessions } = h.t.svc.authEngine;
    expect(await browserSessions.resolve(previousSession)).toBeNull();
    expect(await browserSessions.resolve(b.cookies.get('svc_session'))).toMatchObject({
      userId: invited.id,
      amr: ['pwd'],
    });
  });

  it('an existing account, not signed in: its password joins; the joined page is shown only to that browser', async () => {
    const user = await h.given.user();
    const { id, link } = await invite(user.email);
    const b = new InjectBrowser(h);
    const page = await b.get(link.toString());
    expect(page.body).not.toContain('You are signed in as');
    expect(page.body).toMatch(new RegExp(`id="email"[^>]*readonly[^>]*value="${user.email}"`, 's'));
    const joined = await b.post('/invitations/accept/password', { password: HOSTED_PASSWORD });
    await expectJoined(b, joined, id);

    const stranger = new InjectBrowser(h);
    const peek = await stranger.get(`${h.authBase}/invitations/accepted?invitation_id=${id}`);
    expect(peek.statusCode).toBe(400);
    expect(peek.body).toContain('This invitation is no longer valid');
  });

  it('no account: "Create your account" makes a verified passwordless account that joins, and the client then signs in silently', async () => {
    const { id, email, link } = await invite();
    const b = new InjectBrowser(h);
    const page = await b.get(link.toString());
    expect(page.body).toContain('Create your account');
    const blank = await b.post('/invitations/accept/signup', { display_name: '  ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.body).toContain(INVITATION_MESSAGES.display_name_required);
    expect(
      await db().selectFrom('users').select('id').where('email', '=', email).executeTakeFirst(),
    ).toBeUndefined();

    await expectJoined(b, await b.post('/invitations/accept/signup', { display_name: ' New Person ' }), id);
    const user = await db()
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({ displayName: 'New Person', emailVerified: 1, passwordHash: null });
    expect(await membership(user.id)).toMatchObject({ role: 'editor', active: 1 });
    expect(await h.t.svc.authEngine.browserSessions.resolve(b.cookies.get('svc_session'))).toMatchObject({
      userId: user.id,
      amr: ['email'],
    });

    // "Continue to" the client: its /authorize finds the issuer session and answers with a code.
    const { verifier, challenge } = pkcePair();
    const silent = await b.follow(
      await b.authorize(authorizeQuery(web.clientId, { scope: 'openid' }, challenge)),
    );
    const tokens = await h.redeem(InjectBrowser.location(silent), web.clientId, verifier);
    expect(decodeJwt(tokens.accessToken)).toMatchObject({ sub: user.id, org_id: org.id });
  });

  it('an account created for the address meanwhile: the signup form comes back as the password form', async () => {
    const { id, email, link } = await invite();
    const b = new InjectBrowser(h);
    await b.get(link.toString());
    const user = await h.given.user(email);
    const late = await b.post('/invitations/accept/signup', { display_name: 'Too Late' });
    expect(late.statusCode).toBe(400);
    expect(late.body).toContain(INVITATION_MESSAGES.account_exists);
    expect(late.body).toContain(`action="${h.authBase}/invitations/accept/password"`);
    expect((await invitation(id)).status).toBe('pending');
    await expectJoined(b, await b.post('/invitations/accept/password', { password: HOSTED_PASSWORD }), id);
    expect(await membership(user.id)).toMatchObject({ role: 'editor' });
  });

  it('an account without a password signs in first; the page sends no form', async () => {
    const email = `${uniqueName('nopw')}@example.com`;
    await h.t.svc.admin.createUserAsync({ displayName: 'No Password', email, password: null });
    const { link } = await invite(email);
    const b = new InjectBrowser(h);
    const page = await b.get(link.toString());
    expect(page.statusCode).toBe(200);
    expect(flat(page)).toContain('signs in with an emailed code or link');
    expect(page.body).not.toContain('<form');
    expect(b.linkHref(`Sign in to ${web.name}`)).toBe(CLIENT_REDIRECT_URI);
  });

  it('antiforgery: accept forms without the token or from another origin are refused and accept nothing', async () => {
    const user = await h.given.user();
    const b = await signedInAs(user.email);
    const { id, link } = await invite(user.email);
    await b.get(link.toString());
    const refused = [
      await b.post('/invitations/accept', {}, { withoutToken: true }),
      await b.post('/invitations/accept', {}, { origin: 'https://evil.example.com' }),
    ];
    await b.get(link.toString());
    refused.push(await b.post('/invitations/accept/signup', { display_name: 'X' }, { withoutToken: true }));
    await b.get(link.toString());
    refused.push(
      await b.post('/invitations/accept/password', { password: HOSTED_PASSWORD }, { origin: null }),
    );
    for (const response of refused) {
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain('This form has expired');
    }
    expect((await invitation(id)).status).toBe('pending');
    expect(await membership(user.id)).toBeUndefined();
  });
});

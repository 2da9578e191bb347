import {
  headlessActionResultSchema,
  type SvcCreatedClient,
  type SvcHeadlessActionResult,
  type SvcOrganization,
} from '@svc/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { MINUTE_MS } from '../kernel/clock.js';
import { CLIENT_REDIRECT_URI, pkcePair } from '../test-support/authorize-params.js';
import { describeAboveStorage } from '../test-support/databases.js';
import { HeadlessBrowser } from '../test-support/headless-browser.js';
import {
  createMailedHostedTestApp,
  HOSTED_PASSWORD,
  uniqueName,
  type MailedHostedTestApp,
} from '../test-support/hosted-test-app.js';
import {
  exchangeAtToken,
  invitationState,
  operatorInvitation,
  revokeInvitation,
} from '../test-support/invitation-flow.js';
import { codeIn } from '../test-support/outbox.js';

type Result = SvcHeadlessActionResult & Record<string, unknown>;

/**
 * Headless /start with an `invitationToken` (docs/reference/sign-in.md "Headless API"): the request is bound to the
 * invitation, shows the invited address's view, and completes with a code whose session is scoped to
 * the invitation's organization; the invitation is used once.
 */
describeAboveStorage('headless invitation-bound authorization', (kind) => {
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
  // Past every send window, so that the tests' emails do not throttle each other.
  beforeEach(() => {
    h.t.clock.advance(16 * MINUTE_MS);
  });

  function resultOf(response: LightMyRequestResponse, status = 200): Result {
    expect(response.statusCode, response.body.slice(0, 400)).toBe(status);
    const body = response.json<Result>();
    headlessActionResultSchema.parse(body);
    return body;
  }

  async function start(invitationToken: string, client = web) {
    const b = new HeadlessBrowser(h);
    const pkce = pkcePair();
    const response = await b.post('/start', {
      responseType: 'code',
      clientId: client.clientId,
      redirectUri: CLIENT_REDIRECT_URI,
      codeChallenge: pkce.challenge,
      codeChallengeMethod: 'S256',
      state: 'state-1',
      scope: 'openid email',
      invitationToken,
    });
    return { b, pkce, response };
  }

  it('a new address: /start shows the signup view of the invitation; signing up redirects with a code scoped to the organization; the token is then used up', async () => {
    const email = `${uniqueName('new')}@example.com`;
    const invitation = await operatorInvitation(h, org.id, email, { clientId: web.clientId });
    const { b, pkce, response } = await start(invitation.token);
    const first = resultOf(response);
    expect(first.viewModel).toMatchObject({
      view: 'signup',
      invitation: { email, organizationName: 'Acme Corp', role: 'editor', acceptWith: 'signup' },
      values: { email },
    });
    const requestId = first.viewModel?.requestId ?? '';
    const token = invitation.token;

    const blank = resultOf(
      await b.post('/invitations/signup', { requestId, invitationToken: token, displayName: ' ' }),
      400,
    );
    expect(blank).toMatchObject({ error: 'display_name_required', viewModel: { view: 'signup' } });
    const done = resultOf(
      await b.post('/invitations/signup', { requestId, invitationToken: token, displayName: 'Dee' }),
    );
    expect(done).toMatchObject({ type: 'redirect', viewModel: { view: 'invite-accepted' } });
    const claims = await exchangeAtToken(h, web.clientId, done.authorization?.code ?? '', pkce.verifier);
    expect(claims.org_id).toBe(org.id);
    expect(await invitationState(h, invitation.id, String(claims.sub))).toEqual({
      status: 'accepted',
      acceptedUserId: claims.sub,
      role: 'editor',
    });

    const again = await start(invitation.token);
    expect(again.response.statusCode).toBe(400);
    expect(again.response.json()).toMatchObject({ error: 'invalid_invitation' });
  });

  it('an account in other organizations: invite-login; a wrong password is refused; its password completes in the invited organization without a choice', async () => {
    const user = await h.given.user();
    await h.given.organization(undefined, user.id);
    await h.given.organization(undefined, user.id);
    const invitation = await operatorInvitation(h, org.id, user.email);
    const { b, pkce, response } = await start(invitation.token);
    const first = resultOf(response);
    expect(first.viewModel).toMatchObject({
      view: 'invite-login',
      invitation: { email: user.email, acceptWith: 'password' },
    });
    const requestId = first.viewModel?.requestId ?? '';

    // The generic password action signs in the invited address too.
    const wrong = resultOf(await b.post('/password/login', { requestId, password: 'not it' }), 400);
    expect(wrong).toMatchObject({ error: 'invalid_credentials', viewModel: { view: 'invite-login' } });
    expect((await invitationState(h, invitation.id, user.id)).status).toBe('pending');
    const done = resultOf(await b.post('/password/login', { requestId, password: HOSTED_PASSWORD }));
    expect(done.type).toBe('redirect');
    const claims = await exchangeAtToken(h, web.clientId, done.authorization?.code ?? '', pkce.verifier);
    expect(claims).toMatchObject({ sub: user.id, org_id: org.id });
    expect(await invitationState(h, invitation.id, user.id)).toMatchObject({
      status: 'accepted',
      role: 'editor',
    });
  });

  it('another account signing in is refused and accepts nothing; the invited address then completes', async () => {
    const invited = await h.given.user();
    const someoneElse = await h.given.user();
    const invitation = await operatorInvitation(h, org.id, invited.email);
    const { b, pkce, response } = await start(invitation.token);
    const requestId = resultOf(response).viewModel?.requestId ?? '';

    // Another address proves its mailbox with an emailed code on the same request.
    resultOf(await b.post('/email-otp/start', { requestId, email: someoneElse.email }));
    const code = codeIn(h.smtp.to(someoneElse.email).at(-1)?.text ?? null);
    const refused = resultOf(await b.post('/email-otp/verify', { requestId, code }), 400);
    expect(refused).toMatchObject({
      error: 'invitation_other_account',
      viewModel: { view: 'invite-login', invitation: { email: invited.email } },
    });
    expect(b.cookies.get('svc_session')).toBeUndefined();
    expect(await invitationState(h, invitation.id, someoneElse.id)).toEqual({
      status: 'pending',
      acceptedUserId: null,
      role: undefined,
    });
    expect((await h.auditEvents('invitation.sign_in.failed')).at(-1)).toMatchObject({
      actorId: someoneElse.id,
      organizationId: org.id,
    });

    // A token of another invitation cannot stand in for the bound one.
    const elsewhere = await operatorInvitation(h, org.id, `${uniqueName('x')}@example.com`);
    const foreign = await b.post('/invitations/resolve', { requestId, invitationToken: elsewhere.token });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({ error: 'invalid_invitation' });

    const done = resultOf(
      await b.post('/invitations/login', {
        requestId,
        invitationToken: invitation.token,
        password: HOSTED_PASSWORD,
      }),
    );
    expect(done).toMatchObject({ type: 'redirect', viewModel: { view: 'invite-accepted' } });
    const claims = await exchangeAtToken(h, web.clientId, done.authorization?.code ?? '', pkce.verifier);
    expect(claims).toMatchObject({ sub: invited.id, org_id: org.id });
  });

  it('an unusable token is a 400 invalid_invitation at /start: unknown, revoked, or another client’s invitation', async () => {
    const unknown = await start('not-a-token');
    const revoked = await operatorInvitation(h, org.id, `${uniqueName('r')}@example.com`);
    await revokeInvitation(h, revoked.id);
    const forWeb = await operatorInvitation(h, org.id, `${uniqueName('w')}@example.com`, {
      clientId: web.clientId,
    });
    for (const { response } of [unknown, await start(revoked.token), await start(forWeb.token, other)]) {
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: 'invalid_invitation' });
    }
    expect((await invitationState(h, forWeb.id, undefined)).status).toBe('pending');
  });
});

import type { SvcCreatedClient, SvcHeadlessActionResult } from '@svc/contract';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authorizeQuery, pkcePair } from '../../test-support/authorize-params.js';
import { describeAboveStorage } from '../../test-support/databases.js';
import { PROVIDERS_ON_LOOPBACK } from '../../test-support/federation/loopback-server.js';
import { startOidcPeer, type OidcPeer } from '../../test-support/federation/oidc-peer.js';
import {
  expectBackInAppUi,
  HeadlessBrowser,
  headlessStartBody,
} from '../../test-support/headless-browser.js';
import {
  createHostedTestApp,
  createMailedHostedTestApp,
  HOSTED_PASSWORD,
  type MailedHostedTestApp,
} from '../../test-support/hosted-test-app.js';
import { invitationState, operatorInvitation } from '../../test-support/invitation-flow.js';
import { InjectBrowser } from '../../test-support/inject-browser.js';
import {
  oidcConnectionBody,
  TEST_OIDC_CALLBACK,
  TEST_OIDC_CLIENT_SECRET,
} from '../../test-support/oidc-connections.js';
import { STEP_ERROR_MESSAGES } from '../../signin/flow/step-error-messages.js';
import { escapeHtml } from '../../http/pages/html.js';

const PEER_CLIENT = {
  clientId: 'svc-hosted',
  clientSecret: TEST_OIDC_CLIENT_SECRET,
  redirectUris: [TEST_OIDC_CALLBACK],
};
const ACCOUNTS = [
  { id: 'alice', email: 'alice.provider@example.com', emailVerified: true, name: 'Alice Liddell' },
  { id: 'mallory', email: 'existing.provider@example.com', emailVerified: false, name: 'Mallory' },
  { id: 'carol', email: 'carol.provider@example.com', emailVerified: true, name: 'Carol' },
  { id: 'dave', email: 'dave.provider@example.com', emailVerified: true, name: 'Dave' },
  { id: 'erin', email: 'erin.invited@example.com', emailVerified: true, name: 'Erin' },
  { id: 'frank', email: 'frank.app-ui@example.com', emailVerified: true, name: 'Frank' },
];

let peer: OidcPeer;
beforeAll(async () => {
  peer = await startOidcPeer({ clients: [PEER_CLIENT], accounts: ACCOUNTS, shape: 'custom' });
});
afterAll(() => peer.close());

describeAboveStorage('signing in through a provider on the hosted pages and the headless API', (kind) => {
  let h: MailedHostedTestApp;
  let web: SvcCreatedClient;
  let connectionId: string;

  beforeAll(async () => {
    h = await createMailedHostedTestApp(kind, PROVIDERS_ON_LOOPBACK);
    web = await h.given.client();
    const connection = await h.t.svc.admin.createOidcConnectionAsync(
      oidcConnectionBody('Custom', {
        displayName: 'Corporate IdP',
        clientId: PEER_CLIENT.clientId,
        discoveryUrl: peer.discoveryUrl,
      }),
    );
    connectionId = connection.id;
  });
  afterAll(async () => {
    await h.close();
  });

  /** A browser at the identify page of a new request, and the PKCE verifier of that request. */
  async function atIdentify(): Promise<{ b: InjectBrowser; verifier: string }> {
    const { verifier, challenge } = pkcePair();
    const b = new InjectBrowser(h);
    await b.follow(
      await b.authorize(authorizeQuery(web.clientId, { scope: 'openid email', code_challenge: challenge })),
    );
    return { b, verifier };
  }

  /** Clicks the provider's button and signs in at the provider: the callback URL it sends back. */
  async function atProvider(b: InjectBrowser, accountId: string): Promise<URL> {
    const started = await b.click('Continue with Corporate IdP');
    expect(started.statusCode).toBe(303);
    const location = InjectBrowser.location(started);
    expect(location.origin).toBe(peer.issuer);
    return peer.signIn(location, accountId);
  }

  it('the sign-in page offers the provider; its callback signs a new account in and reaches the client with amr fed', async () => {
    const { b, verifier } = await atIdentify();
    expect(b.page).toContain('Continue with Corporate IdP</a>');
    expect(b.linkHref('Continue with Corporate IdP')).toBe(
      `${h.authBase}/login/oidc/${connectionId}?request_id=${b.fields.request_id}`,
    );
    const callback = await atProvider(b, 'alice');
    expect(callback.pathname).toBe(`${h.authBase}/oidc/callback`);
    const done = await b.follow(await b.get(callback.href));
    const redirect = InjectBrowser.location(done);
    expect(redirect.origin + redirect.pathname).toBe('https://app.example.com/callback');
    const tokens = await h.redeem(redirect, web.clientId, verifier);
    const claims = decodeJwt(tokens.idToken ?? '');
    expect(claims.amr).toEqual(['fed']);
    const user = await h.t.svc.admin.getUserAsync(String(claims.sub));
    expect(user).toMatchObject({ email: 'alice.provider@example.com', emailVerified: true });
    const [completed] = await h.auditEvents('oidc.authorization.completed');
    expect(completed).toMatchObject({ userId: claims.sub, clientId: web.clientId, ipAddress: '127.0.0.1' });

    // The same callback again (reload, replay): nothing waits for it.
    const replay = await b.get(callback.href);
    expect(replay.statusCode).toBe(400);
    expect(replay.body).toContain('This sign-in is no longer valid');
  });

  it('a callback carried to another browser continues nothing there and redeems nothing', async () => {
    const { b } = await atIdentify();
    const callback = await atProvider(b, 'carol');
    const attacker = new InjectBrowser(h);
    const elsewhere = await attacker.get(callback.href);
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.body).toContain('This sign-in is no longer valid');
    expect(attacker.cookies.has('svc_session')).toBe(false);
    const users = await h.t.svc.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'carol.provider@example.com')
      .execute();
    expect(users).toEqual([]);
  });

  it('a refusal at the provider shows the sign-in page again, saying so', async () => {
    const { b } = await atIdentify();
    const started = await b.click('Continue with Corporate IdP');
    const state = InjectBrowser.location(started).searchParams.get('state') ?? '';
    const denied = await b.get(
      `${h.authBase}/oidc/callback?${new URLSearchParams({ state, error: 'access_denied' }).toString()}`,
    );
    expect(denied.statusCode).toBe(400);
    expect(denied.body).toContain(escapeHtml(STEP_ERROR_MESSAGES.provider_cancelled));
    expect(denied.body).toContain(`action="${h.authBase}/login/identify"`);
    expect(b.cookies.has('svc_session')).toBe(false);
  });

  it('an address the provider does not vouch for never signs in to the existing account', async () => {
    const existing = await h.given.user('existing.provider@example.com');
    const { b } = await atIdentify();
    const page = await b.get((await atProvider(b, 'mallory')).href);
    expect(page.statusCode).toBe(400);
    expect(page.body).toContain(escapeHtml(STEP_ERROR_MESSAGES.provider_email_unverified));
    expect(b.cookies.has('svc_session')).toBe(false);
    const links = await h.t.svc.admin.listUserIdentitiesAsync(existing.id);
    expect(links.data).toEqual([]);
    // The account still signs in with its password.
    const { b: other } = await atIdentify();
    await other.follow(await other.post('/login/identify', { email: existing.email }));
    const signedIn = await other.post('/login/password', { password: HOSTED_PASSWORD });
    expect(signedIn.statusCode).toBe(303);
  });

  it('the invited address accepts its invitation by signing up through the provider', async () => {
    const org = await h.given.organization();
    const invitation = await operatorInvitation(h, org.id, 'erin.invited@example.com', {
      clientId: web.clientId,
    });
    const b = new InjectBrowser(h);
    const page = await b.follow(
      await b.authorize(
        authorizeQuery(web.clientId, { scope: 'openid', invitation_token: invitation.token }),
      ),
    );
    expect(page.body).toContain('Create your account');
    const done = await b.follow(await b.get((await atProvider(b, 'erin')).href));
    expect(InjectBrowser.location(done).searchParams.get('code')).toMatch(/.+/);
    const user = await h.t.svc.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'erin.invited@example.com')
      .executeTakeFirstOrThrow();
    expect(await invitationState(h, invitation.id, user.id)).toMatchObject({
      status: 'accepted',
      acceptedUserId: user.id,
      role: 'editor',
    });
  });

  it('malformed starts and callbacks are 4xx pages, never 5xx', async () => {
    const { b } = await atIdentify();
    const requestId = b.fields.request_id ?? '';
    // A segment longer than the router takes is refused before any route: 414.
    expect(
      (await b.get(`${h.authBase}/login/oidc/${'x'.repeat(300)}?request_id=${requestId}`)).statusCode,
    ).toBe(414);
    for (const id of ['%00oidc', 'a%20b', 'x'.repeat(90), '%E2%9C%93']) {
      const response = await b.get(`${h.authBase}/login/oidc/${id}?request_id=${requestId}`);
      expect(response.statusCode, id).toBe(400);
      expect(response.body).toContain(escapeHtml(STEP_ERROR_MESSAGES.provider_unavailable));
    }
    for (const query of ['', 'state=%00', 'state=x&code=y', `state=${'s'.repeat(9000)}`, 'state=a&state=b']) {
      const response = await b.get(`${h.authBase}/oidc/callback?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.body).toContain('This sign-in is no longer valid');
    }
    const app = new HeadlessBrowser(h);
    const started = await app.post('/start', headlessStartBody(web.clientId));
    const headlessId = started.json<SvcHeadlessActionResult>().viewModel?.requestId ?? '';
    const nul = await app.post('/provider/start', { requestId: headlessId, providerId: 'oidc_\u0000' });
    expect(nul.statusCode).toBe(400);
  });

  it("Apple's form post comes back as a GET carrying the browser's cookies, without an antiforgery token", async () => {
    const posted = await h.inject({
      method: 'POST',
      url: `${h.authBase}/oidc/callback`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://appleid.apple.com' },
      payload: new URLSearchParams({ state: 's', code: 'c', user: '{"name":{}}', other: 'x' }).toString(),
    });
    expect(posted.statusCode).toBe(303);
    const location = InjectBrowser.location(posted);
    expect(location.pathname).toBe(`${h.authBase}/oidc/callback`);
    expect([...location.searchParams.keys()]).toEqual(['code', 'state', 'user']);
  });

  it('headless: every view lists the provider; /provider/start redirects to it and the callback reaches the client', async () => {
    const app = new HeadlessBrowser(h);
    const { challenge } = pkcePair();
    const started = await app.post('/start', headlessStartBody(web.clientId, { codeChallenge: challenge }));
    const view = started.json<SvcHeadlessActionResult>();
    expect(view.viewModel?.providers).toEqual([
      { id: connectionId, type: 'Custom', displayName: 'Corporate IdP', logoDataUrl: null },
    ]);
    const requestId = view.viewModel?.requestId ?? '';
    const unknown = await app.post('/provider/start', { requestId, providerId: 'oidc_nope' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ error: 'provider_unavailable' });
    const missing = await app.post('/provider/start', { requestId });
    expect(missing.statusCode).toBe(400);

    const redirect = (
      await app.post('/provider/start', { requestId, connectionId })
    ).json<SvcHeadlessActionResult>();
    expect(redirect).toMatchObject({ type: 'redirect', authorization: null });
    const callback = await peer.signIn(redirect.redirectUrl ?? '', 'dave');
    // The provider sends the same browser back to the hosted callback, with the cookies of the API's origin.
    const b = new InjectBrowser(h);
    for (const [name, value] of app.cookies) b.cookies.set(name, value);
    const done = await b.follow(await b.get(callback.href));
    expect(InjectBrowser.location(done).searchParams.get('code')).toMatch(/.+/);
  });

  it('a disabled connection leaves the page at once, and its start shows the page again saying so', async () => {
    const { b } = await atIdentify();
    const start = b.linkHref('Continue with Corporate IdP') ?? '';
    await h.t.svc.admin.disableOidcConnectionAsync(connectionId);
    try {
      const unavailable = await b.get(start);
      expect(unavailable.statusCode).toBe(400);
      expect(unavailable.body).toContain(escapeHtml(STEP_ERROR_MESSAGES.provider_unavailable));
      expect(unavailable.body).not.toContain('Continue with Corporate IdP');
    } finally {
      await h.t.svc.admin.enableOidcConnectionAsync(connectionId);
    }
  });

  it("an organization's provider signs in no address outside the organization's verified domains, saying what to do", async () => {
    const organization = await h.given.organization();
    const bound = await h.t.svc.admin.createOidcConnectionAsync(
      oidcConnectionBody('Custom', {
        displayName: 'Acme IdP',
        clientId: PEER_CLIENT.clientId,
        discoveryUrl: peer.discoveryUrl,
        organizationId: organization.id,
      }),
    );
    try {
      const { b } = await atIdentify();
      const started = await b.click('Continue with Acme IdP');
      const page = await b.get((await peer.signIn(InjectBrowser.location(started), 'carol')).href);
      expect(page.statusCode).toBe(400);
      expect(page.body).toContain(escapeHtml(STEP_ERROR_MESSAGES.provider_domain_not_claimed));
      expect(b.cookies.has('svc_session')).toBe(false);
      const users = await h.t.svc.database.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'carol.provider@example.com')
        .execute();
      expect(users).toEqual([]);
    } finally {
      await h.t.svc.admin.disableOidcConnectionAsync(bound.id);
    }
  });
});

describeAboveStorage('a provider sign-in driven by an app-owned UI', (kind) => {
  it("the callback sends the browser back to the app's UI for the request's next step", async () => {
    const h = await createHostedTestApp(kind, {
      ...PROVIDERS_ON_LOOPBACK,
      headlessUiUrl: 'http://127.0.0.1:9/sign-in',
    });
    try {
      const thirdParty = await h.given.client({ isFirstParty: false });
      const connection = await h.t.svc.admin.createOidcConnectionAsync(
        oidcConnectionBody('Custom', {
          displayName: 'Corporate IdP',
          clientId: PEER_CLIENT.clientId,
          discoveryUrl: peer.discoveryUrl,
        }),
      );
      const app = new HeadlessBrowser(h);
      const started = await app.post(
        '/start',
        headlessStartBody(thirdParty.clientId, { scope: 'openid email' }),
      );
      const requestId = started.json<SvcHeadlessActionResult>().viewModel?.requestId ?? '';
      const redirect = (
        await app.post('/provider/start', { requestId, connectionId: connection.id })
      ).json<SvcHeadlessActionResult>();
      const callback = await peer.signIn(redirect.redirectUrl ?? '', 'frank');
      // A third-party client asks for consent next; the new issuer session came with the answer.
      await expectBackInAppUi(h, app, callback.href, {
        uiUrl: 'http://127.0.0.1:9/sign-in',
        requestId,
        view: 'consent',
      });
    } finally {
      await h.close();
    }
  });
});

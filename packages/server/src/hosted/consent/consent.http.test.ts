import type { SvcCreatedClient, SvcUser } from '@svc/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authorizeQuery, CLIENT_REDIRECT_URI } from '../../test-support/authorize-params.js';
import { describeAboveStorage } from '../../test-support/databases.js';
import {
  createHostedTestApp,
  HOSTED_PASSWORD,
  type HostedTestApp,
} from '../../test-support/hosted-test-app.js';
import { InjectBrowser } from '../../test-support/inject-browser.js';

describeAboveStorage('hosted consent', (kind) => {
  let h: HostedTestApp;
  let thirdParty: SvcCreatedClient;
  let firstParty: SvcCreatedClient;

  beforeAll(async () => {
    h = await createHostedTestApp(kind);
    thirdParty = await h.given.client({
      isFirstParty: false,
      allowedScopes: ['openid', 'profile', 'email', 'read:todos'],
    });
    firstParty = await h.given.client();
  });
  afterAll(async () => {
    await h.close();
  });

  const params = (response: LightMyRequestResponse) => InjectBrowser.location(response).searchParams;
  const isConsent = (response: LightMyRequestResponse) =>
    response.statusCode === 200 && response.body.includes(`action="${h.authBase}/consent/approve"`);

  /** A new user signed in at the third-party client, looking at its consent page. */
  async function atConsent(scope = 'openid email'): Promise<{ b: InjectBrowser; user: SvcUser }> {
    const user = await h.given.user();
    const b = new InjectBrowser(h);
    const page = await b.signIn(
      await b.authorize(authorizeQuery(thirdParty.clientId, { scope })),
      user.email,
      HOSTED_PASSWORD,
    );
    expect(isConsent(page)).toBe(true);
    return { b, user };
  }

  it('shows the client, the account and the granted scopes; approving records the grant and issues the code', async () => {
    const organizationName = `Acme ${kind}`;
    const user = await h.given.user();
    await h.given.organization(organizationName, user.id);
    const b = new InjectBrowser(h);
    const page = await b.signIn(
      await b.authorize(authorizeQuery(thirdParty.clientId, { scope: 'openid email read:todos admin' })),
      user.email,
      HOSTED_PASSWORD,
    );
    expect(isConsent(page)).toBe(true);
    expect(page.body).toContain(`Allow ${thirdParty.name} to access your account?`);
    expect(page.body).toMatch(new RegExp(`<strong>${user.email}</strong\\s*>`));
    expect(page.body).toContain(`<strong>${organizationName}</strong>`);
    expect(page.body).toContain('See your email address');
    expect(page.body).toContain('<span class="scope-name">read:todos</span>');
    expect(page.body).not.toContain('admin');

    const approved = await b.post('/consent/approve');
    expect(approved.statusCode).toBe(303);
    expect(params(approved).get('code')).toBeTruthy();
    expect(params(approved).get('scope')).toBe('openid email read:todos');
    const grants = await h.t.svc.admin.listUserGrantsAsync(user.id);
    expect(grants.data).toEqual([
      expect.objectContaining({ clientId: thirdParty.clientId, scopes: ['openid', 'email', 'read:todos'] }),
    ]);
  });

  it('a covering grant skips consent (prompt=none too); more scopes or prompt=consent ask again; first-party never asks', async () => {
    const { b, user } = await atConsent('openid email');
    expect(params(await b.post('/consent/approve')).get('code')).toBeTruthy();

    const covered = await b.authorize(authorizeQuery(thirdParty.clientId, { scope: 'email' }));
    expect(params(covered).get('code')).toBeTruthy();
    const silent = await b.authorize(
      authorizeQuery(thirdParty.clientId, { scope: 'openid', prompt: 'none' }),
    );
    expect(params(silent).get('code')).toBeTruthy();

    const wider = await b.authorize(
      authorizeQuery(thirdParty.clientId, { scope: 'openid profile', prompt: 'none' }),
    );
    expect(Object.fromEntries(params(wider))).toMatchObject({
      error: 'consent_required',
      state: 'state-123',
    });
    expect(
      isConsent(
        await b.follow(await b.authorize(authorizeQuery(thirdParty.clientId, { scope: 'openid profile' }))),
      ),
    ).toBe(true);
    // Approving merges the new scope into the one grant.
    await b.post('/consent/approve');
    expect((await h.t.svc.admin.listUserGrantsAsync(user.id)).data[0]?.scopes).toEqual([
      'openid',
      'email',
      'profile',
    ]);

    const forced = await b.follow(
      await b.authorize(authorizeQuery(thirdParty.clientId, { scope: 'email', prompt: 'consent' })),
    );
    expect(isConsent(forced)).toBe(true);
    for (const prompt of [undefined, 'consent']) {
      const own = await b.authorize(authorizeQuery(firstParty.clientId, { scope: 'openid', prompt }));
      expect(params(own).get('code'), prompt).toBeTruthy();
    }
  });

  it('prompt=none for a third-party client without any grant is consent_required', async () => {
    const { b } = await atConsent();
    const response = await b.authorize(authorizeQuery(thirdParty.clientId, { prompt: 'none' }));
    expect(InjectBrowser.location(response).origin + InjectBrowser.location(response).pathname).toBe(
      CLIENT_REDIRECT_URI,
    );
    expect(params(response).get('error')).toBe('consent_required');
  });

  it('deny redirects to the client with access_denied and the state, records nothing and ends the request', async () => {
    const { b, user } = await atConsent();
    const denied = await b.post('/consent/deny');
    expect(denied.statusCode).toBe(303);
    expect(Object.fromEntries(params(denied))).toEqual({
      error: 'access_denied',
      error_description: 'The user denied the request.',
      state: 'state-123',
      iss: h.t.svc.config.issuer,
    });
    expect((await h.t.svc.admin.listUserGrantsAsync(user.id)).data).toEqual([]);
    const late = await b.post('/consent/approve');
    expect(late.statusCode).toBe(400);
    expect(late.body).toContain('This sign-in has expired');
  });

  it('consent posts before the consent step only show the current step', async () => {
    const user = await h.given.user();
    const b = new InjectBrowser(h);
    await b.follow(await b.authorize(authorizeQuery(thirdParty.clientId)));
    const early = await b.post('/consent/approve');
    expect(early.statusCode).toBe(303);
    expect(InjectBrowser.location(early).pathname).toBe(`${h.authBase}/login`);
    expect((await b.post('/consent/deny')).statusCode).toBe(303);
    expect((await h.t.svc.admin.listUserGrantsAsync(user.id)).data).toEqual([]);
  });
});

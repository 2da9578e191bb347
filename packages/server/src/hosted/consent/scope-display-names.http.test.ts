import {
  headlessActionResultSchema,
  type SvcCreatedClient,
  type SvcHeadlessActionResult,
} from '@svc/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authorizeQuery, CLIENT_REDIRECT_URI, pkcePair } from '../../test-support/authorize-params.js';
import { describeAboveStorage } from '../../test-support/databases.js';
import { HeadlessBrowser } from '../../test-support/headless-browser.js';
import {
  createHostedTestApp,
  HOSTED_PASSWORD,
  type HostedTestApp,
} from '../../test-support/hosted-test-app.js';
import { InjectBrowser } from '../../test-support/inject-browser.js';
import { form } from '../../test-support/oauth-http.js';
import { operatorApi } from '../../test-support/operator-api.js';

const SCOPE = 'openid email read:todos write:todos';
const HOSTILE = '<script>alert(1)</script> & "more"';

/** The scope list items of a hosted page, whitespace collapsed. */
const scopeItems = (page: string) =>
  [...page.replace(/\s+/g, ' ').matchAll(/<li>\s*(.*?)\s*<\/li>/g)].map((match) => match[1]);

/**
 * docs/reference/tokens-and-sessions.md "Scopes": the consent view model and page show the display names: the
 * host's code-owned entries and the operators' entries on the hosted consent and device approval pages
 * and in the headless consent view, escaped, and an operator's change at the very next view.
 */
describeAboveStorage('scope display names at consent', (kind) => {
  let h: HostedTestApp;
  let client: SvcCreatedClient;
  let todosId: string;
  const call = operatorApi('/svc/admin/auth/api', () => h.t);

  beforeAll(async () => {
    h = await createHostedTestApp(kind, {
      scopeDisplayNames: [{ scope: 'email', displayName: 'Your work email' }],
    });
    client = await h.given.client({
      isFirstParty: false,
      allowDeviceAuthorization: true,
      allowedScopes: ['openid', 'email', 'read:todos', 'write:todos'],
    });
    const created = await call('POST', '/scope-display-names', {
      scope: 'read:todos',
      displayName: 'Read your <todos>',
      description: HOSTILE,
    });
    expect(created.status, created.text).toBe(201);
    todosId = String(created.body.id);
  });
  afterAll(async () => {
    await h.close();
  });

  const rename = async (displayName: string, description?: string) => {
    const response = await call('PUT', `/scope-display-names/${todosId}`, { displayName, description });
    expect(response.status, response.text).toBe(200);
  };

  it('the hosted consent page shows each scope by its display name and description, escaped; a change shows at the next view', async () => {
    await rename('Read your <todos>', HOSTILE);
    const user = await h.given.user();
    const b = new InjectBrowser(h);
    const page = await b.signIn(
      await b.authorize(authorizeQuery(client.clientId, { scope: SCOPE })),
      user.email,
      HOSTED_PASSWORD,
    );
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('<script>alert(1)</script>');
    expect(scopeItems(page.body)).toEqual([
      'Confirm who you are when you sign in',
      'Your work email',
      'Read your &lt;todos&gt;<span class="scope-description">&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;more&quot;</span>',
      '<span class="scope-name">write:todos</span>',
    ]);

    await rename('Read your todo lists');
    const again = await b.get(`${h.authBase}/login?request_id=${b.fields.request_id ?? ''}`);
    expect(scopeItems(again.body)[2]).toBe('Read your todo lists');
    const approved = await b.post('/consent/approve');
    expect(InjectBrowser.location(approved).searchParams.get('scope')).toBe(SCOPE);
  });

  it('the headless consent view lists scopeDetails beside scopes; a change shows at the next view', async () => {
    await rename('Read your <todos>', HOSTILE);
    const user = await h.given.user();
    const b = new HeadlessBrowser(h);
    const result = (response: LightMyRequestResponse) => {
      expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
      return headlessActionResultSchema.parse(response.json()) as SvcHeadlessActionResult;
    };
    const started = result(
      await b.post('/start', {
        responseType: 'code',
        clientId: client.clientId,
        redirectUri: CLIENT_REDIRECT_URI,
        codeChallenge: pkcePair().challenge,
        codeChallengeMethod: 'S256',
        scope: SCOPE,
      }),
    );
    const requestId = started.viewModel?.requestId ?? '';
    result(await b.post('/identify', { requestId, email: user.email }));
    const consent = result(await b.post('/password/login', { requestId, password: HOSTED_PASSWORD }));
    expect(consent.viewModel).toMatchObject({
      view: 'consent',
      scopes: ['openid', 'email', 'read:todos', 'write:todos'],
      scopeDetails: [
        { scope: 'openid', displayName: 'Confirm who you are when you sign in', description: null },
        { scope: 'email', displayName: 'Your work email', description: null },
        { scope: 'read:todos', displayName: 'Read your <todos>', description: HOSTILE },
        { scope: 'write:todos', displayName: null, description: null },
      ],
    });

    await rename('Read your todo lists', 'Lists and items.');
    const next = result(await b.get(`/requests/${requestId}`));
    expect(next.viewModel?.scopeDetails).toContainEqual({
      scope: 'read:todos',
      displayName: 'Read your todo lists',
      description: 'Lists and items.',
    });
  });

  it('the device approval page shows the display names too', async () => {
    await rename('Read your todo lists');
    const user = await h.given.user();
    const device = await h.inject({
      method: 'POST',
      url: `${h.authBase}/device_authorization`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ client_id: client.clientId, scope: 'email read:todos write:todos' }),
    });
    expect(device.statusCode, device.body).toBe(200);
    const b = new InjectBrowser(h);
    const page = await b.signInToApproveDevice(device.json(), user.email, HOSTED_PASSWORD);
    expect(page.body).toContain(`<p class="user-code">${device.json<{ user_code: string }>().user_code}</p>`);
    expect(scopeItems(page.body)).toEqual([
      'Your work email',
      'Read your todo lists',
      '<span class="scope-name">write:todos</span>',
    ]);
  });
});

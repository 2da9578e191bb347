import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SvcCreatedClient } from '@svc/contract';
import * as oauth from 'oauth4webapi';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { STEP_ERROR_MESSAGES } from '../signin/flow/step-error-messages.js';
import { authenticatorCode, TOTP_STEP_MS, wrongCode } from '../test-support/authenticator-app.js';
import { launchBrowser, type TestBrowser } from '../test-support/browser.js';
import { BrowserTestClient, heading } from '../test-support/browser-flow.js';
import { HOSTED_PASSWORD } from '../test-support/hosted-test-app.js';
import { selfEnroll } from '../test-support/mfa.js';
import { codeIn } from '../test-support/outbox.js';
import { serveHostedApp, type ServedHostedApp } from '../test-support/served-hosted-app.js';
import { startTestSmtpServer, type TestSmtpServer } from '../test-support/smtp-server.js';

/** The built client package (`npm test` builds it first), served to the page as plain ES modules. */
const HEADLESS_DIST = new URL('../../../headless/dist/', import.meta.url);
const README = new URL('../../../headless/README.md', import.meta.url);

/** The example page of the package's README, exactly as printed there: its HTML and its module script. */
function readmeExample(): { html: string; script: string } {
  const readme = readFileSync(README, 'utf8');
  const html = /```html\n<!-- sign-in\.html -->\n([\s\S]*?)```/.exec(readme)?.[1];
  const script = /```js\n\/\/ sign-in\.js\n([\s\S]*?)```/.exec(readme)?.[1];
  if (html === undefined || script === undefined) throw new Error('README.md has no example sign-in page');
  return { html, script };
}

/** Replaces a placeholder that must be in the example (a renamed one would otherwise go unnoticed). */
function substitute(text: string, placeholder: string, value: string): string {
  if (!text.includes(placeholder)) throw new Error(`The README example lost ${placeholder}`);
  return text.replaceAll(placeholder, value);
}

/**
 * The app's own web server, on another loopback port than Svc (another origin, the same site): the
 * README's sign-in page, set up for `clientId`, the package's dist under /vendor/svc-headless/, and the
 * app's callback page.
 */
async function serveApp(svcOrigin: () => string) {
  const example = readmeExample();
  const state = { clientId: '' };
  let origin = '';
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://app').pathname;
    const send = (type: string, body: string | Buffer) =>
      response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
    const vendored = /^\/vendor\/svc-headless\/([\w-]+\.js)$/.exec(path)?.[1];
    if (path === '/sign-in.html') return send('text/html; charset=utf-8', example.html);
    if (path === '/sign-in.js') {
      let script = substitute(example.script, 'https://id.example.com', svcOrigin());
      script = substitute(script, "'my-app'", `'${state.clientId}'`);
      script = substitute(script, 'https://app.example.com/callback', `${origin}/callback`);
      return send('text/javascript; charset=utf-8', script);
    }
    if (vendored !== undefined && existsSync(new URL(vendored, HEADLESS_DIST))) {
      return send('text/javascript; charset=utf-8', readFileSync(new URL(vendored, HEADLESS_DIST)));
    }
    if (path === '/callback') {
      return send('text/html; charset=utf-8', '<!doctype html><title>App</title><h1>Back at the app</h1>');
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A custom sign-in page built with @svc/headless (the README's example, importing the built package)
 * on its own origin, driven in Debian Chromium against Svc on a real port; oauth4webapi exchanges the
 * code at /token with the verifier the client package made and filled in.
 */
describe('a custom sign-in page with @svc/headless in a browser', () => {
  let smtp: TestSmtpServer;
  let served: ServedHostedApp;
  let app: Awaited<ReturnType<typeof serveApp>>;
  let browser: TestBrowser;
  let rp: BrowserTestClient;
  let thirdParty: SvcCreatedClient;
  let firstParty: SvcCreatedClient;

  beforeAll(async () => {
    if (!existsSync(new URL('index.js', HEADLESS_DIST))) {
      throw new Error('packages/headless is not built: npx tsc -b packages/contract packages/headless');
    }
    smtp = await startTestSmtpServer();
    app = await serveApp(() => served.origin);
    served = await serveHostedApp({ smtpUrl: smtp.url(), headlessAllowedOrigins: [app.origin] });
    browser = await launchBrowser();
    const redirectUris = [`${app.origin}/callback`];
    thirdParty = await served.hosted.given.client({ isFirstParty: false, redirectUris });
    firstParty = await served.hosted.given.client({ redirectUris });
    rp = await BrowserTestClient.discover(served);
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
    await app?.close();
    await smtp?.close();
  });
  beforeEach(async () => {
    await browser.context.clearCookies();
  });

  const clock = () => served.hosted.t.clock;
  const shown = (page: Page) => page.locator('section:not([hidden])');

  /** Opens the app's sign-in page for `client`, recording the headless calls the page makes. */
  async function openSignIn(client: SvcCreatedClient) {
    app.state.clientId = client.clientId;
    const page = await browser.context.newPage();
    const calls: string[] = [];
    const base = `${served.origin}${served.hosted.authBase}/headless`;
    page.on('request', (request) => {
      if (request.url().startsWith(base) && request.method() !== 'OPTIONS') {
        calls.push(`${request.method()} ${request.url().slice(base.length)}`);
      }
    });
    await page.goto(`${app.origin}/sign-in.html`);
    await heading(page, 'Sign in');
    return { page, calls };
  }

  /**
   * What the app's callback does: the authorization response validated, the code exchanged at /token
   * with the verifier the page kept (the client package's), and the ID token validated.
   */
  async function exchange(page: Page, created: SvcCreatedClient) {
    await page.waitForURL((url) => url.toString().startsWith(`${app.origin}/callback`));
    const kept = await page.evaluate(() => ({ ...sessionStorage }) as Record<string, string>);
    const verifier = kept['oauth:code_verifier'] ?? '';
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const client: oauth.Client = {
      client_id: created.clientId,
      token_endpoint_auth_method: 'none',
      // The service's clock, which the test moves on by a TOTP step.
      [oauth.clockSkew]: Math.round((clock().now() - Date.now()) / 1000),
    };
    const params = oauth.validateAuthResponse(rp.as, client, new URL(page.url()), kept['oauth:state']);
    const response = await oauth.authorizationCodeGrantRequest(
      rp.as,
      client,
      oauth.None(),
      params,
      `${app.origin}/callback`,
      verifier,
      rp.options,
    );
    const result = await oauth.processAuthorizationCodeResponse(rp.as, client, response, {
      expectedNonce: kept['oauth:nonce'] ?? '',
      requireIdToken: true,
    });
    return { claims: oauth.getValidatedIdTokenClaims(result), kept };
  }

  it('password, organization (across a reload), MFA and consent, then oauth4webapi redeems the code', async () => {
    const { given, t } = served.hosted;
    const user = await given.user();
    await given.organization('Northwind', user.id);
    const chosen = await given.organization('Contoso', user.id);
    const authenticator = await selfEnroll(t.svc.auth, clock(), user.id);
    clock().advance(TOTP_STEP_MS);
    const { page, calls } = await openSignIn(thirdParty);

    await shown(page).getByLabel('Email').fill(user.email);
    await shown(page).getByRole('button', { name: 'Continue' }).click();
    await heading(page, 'Enter your password');
    expect(await shown(page).locator('p[data-text="email"]').textContent()).toBe(user.email);
    await shown(page).getByLabel('Password').fill(`${HOSTED_PASSWORD}!`);
    await shown(page).getByRole('button', { name: 'Sign in' }).click();
    // The refused step's 400 answer carries the view: the page shows it again with the message.
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe(STEP_ERROR_MESSAGES.invalid_credentials);
    await heading(page, 'Enter your password');
    await shown(page).getByLabel('Password').fill(HOSTED_PASSWORD);
    await shown(page).getByRole('button', { name: 'Sign in' }).click();

    await heading(page, 'Choose an organization');
    expect(await page.getByRole('alert').isHidden()).toBe(true);
    // A reload in the middle: the page resumes with GET /requests/{id}, the verifier from sessionStorage.
    await page.reload();
    await heading(page, 'Choose an organization');
    expect(await shown(page).getByRole('button').allTextContents()).toEqual(
      expect.arrayContaining(['Northwind', 'Contoso']),
    );
    await shown(page).getByRole('button', { name: 'Contoso' }).click();

    await heading(page, 'Two-step verification');
    await shown(page).getByLabel('Code').fill(wrongCode(authenticator.secret, clock().now()));
    await shown(page).getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(STEP_ERROR_MESSAGES.mfa_code_invalid);
    await shown(page).getByLabel('Code').fill(authenticatorCode(authenticator.secret, clock().now()));
    await shown(page).getByRole('button', { name: 'Verify' }).click();

    await heading(page, `Allow ${thirdParty.name} to access your account?`);
    expect(await shown(page).getByRole('listitem').allTextContents()).toEqual(['openid', 'profile', 'email']);
    await shown(page).getByRole('button', { name: 'Approve' }).click();

    const { claims, kept } = await exchange(page, thirdParty);
    expect(claims).toMatchObject({
      iss: served.issuer,
      sub: user.id,
      aud: thirdParty.clientId,
      org_id: chosen.id,
      email: user.email,
      amr: ['pwd', 'otp', 'mfa'],
    });
    // The client package forgot the verifier once it filled it into the redirect.
    expect(Object.keys(kept).filter((key) => key.startsWith('svc-headless:'))).toEqual([]);
    const requestId = /^GET \/requests\/(.+)$/.exec(calls.find((call) => call.startsWith('GET')) ?? '')?.[1];
    expect(calls).toEqual([
      'POST /start',
      'POST /identify',
      'POST /password/login',
      'POST /password/login',
      `GET /requests/${requestId}`,
      'POST /organization/select',
      'POST /mfa/verify',
      'POST /mfa/verify',
      'POST /consent/approve',
    ]);
    await page.close();
  });

  it('signs in with an emailed code (read from the SMTP server) for a first-party client', async () => {
    const user = await served.hosted.given.user();
    const { page, calls } = await openSignIn(firstParty);
    const before = smtp.messages.length;
    await shown(page).getByLabel('Email').fill(user.email);
    await shown(page).getByRole('button', { name: 'Email me a code' }).click();
    await heading(page, 'Check your email');
    const target = (await shown(page).locator('[data-text="target"]').textContent()) ?? '';
    expect(target).not.toBe('');
    expect(target).not.toBe(user.email);
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    expect(mail?.rcptTo).toEqual([user.email]);
    await shown(page)
      .getByLabel('Code')
      .fill(codeIn(mail?.text ?? null));
    await shown(page).getByRole('button', { name: 'Continue' }).click();

    const { claims } = await exchange(page, firstParty);
    expect(claims).toMatchObject({ sub: user.id, aud: firstParty.clientId, email: user.email, amr: ['otp'] });
    expect(calls).toEqual(['POST /start', 'POST /email-otp/start', 'POST /email-otp/verify']);
    await page.close();
  });
});

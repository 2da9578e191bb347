import type { SvcHeadlessStartBody } from '@svc/contract';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { CLIENT_REDIRECT_URI, pkcePair } from './authorize-params.js';
import type { HostedTestApp } from './hosted-test-app.js';
import { InjectBrowser, setCookies } from './inject-browser.js';

/**
 * A browser app calling the headless API over `inject()` with `credentials: 'include'`: keeps the
 * cookies the API sets (one path, the auth base) and sends them back, with its Origin header.
 */
export class HeadlessBrowser {
  readonly cookies = new Map<string, string>();
  readonly #hosted: HostedTestApp;
  readonly #origin: string | null;
  readonly #base: string;

  /** `origin`: the Origin header the app's page sends (null: none, like a same-origin GET or a server). */
  constructor(hosted: HostedTestApp, origin: string | null = null, base = `${hosted.authBase}/headless`) {
    this.#hosted = hosted;
    this.#origin = origin;
    this.#base = base;
  }

  /** POST {base}{path} with a JSON body (a string is sent as is). */
  post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    return this.#send({
      method: 'POST',
      url: `${this.#base}${path}`,
      headers: { 'content-type': 'application/json', ...headers },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });
  }

  get(path: string): Promise<LightMyRequestResponse> {
    return this.#send({ method: 'GET', url: `${this.#base}${path}`, headers: {} });
  }

  options(path: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    return this.#send({ method: 'OPTIONS', url: `${this.#base}${path}`, headers });
  }

  async #send(request: {
    method: 'GET' | 'POST' | 'OPTIONS';
    url: string;
    headers: Record<string, string>;
    payload?: string;
  }): Promise<LightMyRequestResponse> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await this.#hosted.inject({
      ...request,
      headers: {
        ...(this.#origin === null ? {} : { origin: this.#origin }),
        ...(cookie === '' ? {} : { cookie }),
        ...request.headers,
      },
    });
    for (const set of setCookies(response)) {
      if (set.attributes['max-age'] === '0' || set.value === '') this.cookies.delete(set.name);
      else this.cookies.set(set.name, set.value);
    }
    return response;
  }
}

/** A /start body for `clientId` with a fresh PKCE challenge; `extra` adds or overrides fields. */
export function headlessStartBody(clientId: string, extra: Partial<SvcHeadlessStartBody> = {}) {
  return {
    responseType: 'code',
    clientId,
    redirectUri: CLIENT_REDIRECT_URI,
    codeChallenge: pkcePair().challenge,
    codeChallengeMethod: 'S256',
    state: 'state-123',
    scope: 'openid profile email',
    ...extra,
  };
}

/**
 * Opens `url` (a callback or continuation of a sign-in the app-owned UI at `uiUrl` drives) in a browser
 * holding the app's cookies, and checks that it goes back (303) to that UI for `requestId`'s `view`, with
 * the new issuer session's cookie.
 */
export async function expectBackInAppUi(
  hosted: HostedTestApp,
  app: HeadlessBrowser,
  url: string,
  expected: { readonly uiUrl: string; readonly requestId: string; readonly view: string },
): Promise<void> {
  const b = new InjectBrowser(hosted);
  for (const [name, value] of app.cookies) b.cookies.set(name, value);
  const back = await b.get(url);
  expect(back.statusCode).toBe(303);
  const location = InjectBrowser.location(back);
  expect(`${location.origin}${location.pathname}`).toBe(expected.uiUrl);
  expect(location.searchParams.get('request')).toBe(expected.requestId);
  expect(location.searchParams.get('view')).toBe(expected.view);
  expect(b.cookies.has('svc_session')).toBe(true);
}

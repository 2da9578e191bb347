import type { BrowserContext } from '../signin/flow/authorize-outcomes.js';
import type { HeadlessSignIn } from './headless-sign-in.js';

/**
 * The app-owned sign-in UI (docs/reference/sign-in.md "Headless API": An app-owned UI is redirected with query parameters
 * request, view, email, pendingToken, ui_context): where GET /authorize sends a browser that must act,
 * instead of the hosted pages. The UI then drives the request through the headless API with the same
 * browser's cookies.
 *
 * - `request`: the request id; `view`: its current headless view (the /authorize `view` on the first
 *   screen);
 * - `email`: the address the request knows (the identified one, else the login_hint), when any;
 * - `pendingToken`: only for the `organization` view (a reused session that must choose): single use,
 *   short-lived and void in any other browser, like the view model's;
 * - `ui_context`: the /authorize `ui_context`, unchanged.
 */
export class AppOwnedUi {
  readonly #url: string;
  readonly #headless: HeadlessSignIn;

  constructor(url: string, headless: HeadlessSignIn) {
    this.#url = url;
    this.#headless = headless;
  }

  /** Where the browser goes for this request (the client, when the request resolved itself). */
  async location(
    requestId: string,
    browser: BrowserContext & { readonly browserId: string },
  ): Promise<string> {
    const answer = await this.#headless.current(requestId, browser);
    const model = answer.body.viewModel;
    if (answer.body.type === 'redirect' && answer.body.redirectUrl !== null) return answer.body.redirectUrl;
    const { record } = await this.#headless.request(requestId, browser);
    const url = new URL(this.#url);
    url.searchParams.set('request', requestId);
    if (model !== null) url.searchParams.set('view', model.view);
    const email = record.email ?? record.loginHint;
    if (email !== null) url.searchParams.set('email', email);
    const pendingToken = model?.organizationSelection?.pendingToken;
    if (pendingToken !== undefined) url.searchParams.set('pendingToken', pendingToken);
    if (record.uiContext !== null) url.searchParams.set('ui_context', record.uiContext);
    return url.href;
  }
}

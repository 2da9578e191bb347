import type { SignInProvider } from '../../signin/flow/authorize-outcomes.js';
import { requestPageHref } from '../form.js';
import { html, type SafeHtml } from '../../http/pages/html.js';

/** The hosted page link that starts a provider for a request (`/login/oidc/{connectionId}`). */
export function providerStartHref(authBase: string, requestId: string, connectionId: string): string {
  return requestPageHref(authBase, `/login/oidc/${encodeURIComponent(connectionId)}`, requestId);
}

/**
 * A button per enabled provider ("Continue with Google", its logo beside), below an "or" divider. Links,
 * not forms: starting a provider changes nothing the browser could be tricked into, and it works without
 * JavaScript. The logo is decorative (the name says it), so its `alt` is empty.
 */
export function providerButtons(
  authBase: string,
  requestId: string,
  providers: readonly SignInProvider[],
): SafeHtml {
  if (providers.length === 0) return html``;
  const buttons = providers.map((provider) => {
    const href = providerStartHref(authBase, requestId, provider.id);
    const logo =
      provider.logoDataUrl === null
        ? ''
        : html`<img src="${provider.logoDataUrl}" alt="" width="20" height="20" />`;
    const label = `Continue with ${provider.displayName}`;
    return html`<a class="button button-secondary provider" href="${href}">${logo}${label}</a>`;
  });
  return html`<p class="divider"><span>or</span></p>
    <div class="stack providers">${buttons}</div>`;
}

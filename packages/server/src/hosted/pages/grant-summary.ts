import { html, type SafeHtml } from '../../http/pages/html.js';
import type { SelfRegisteredClient } from '../../signin/flow/authorize-outcomes.js';
import type { DescribedScope } from './scope-descriptions.js';

/** "Signed in as … in …" of a page that asks the user to grant something; nothing without an account. */
export function signedInAs(userEmail: string | undefined, organizationName: string | undefined): SafeHtml {
  return userEmail === undefined
    ? html``
    : html`<p class="lead">
        Signed in as
        <strong>${userEmail}</strong
        >${organizationName !== undefined && html` in <strong>${organizationName}</strong>`}
      </p>`;
}

/**
 * What a client will be able to do: `lead` before the list (for example "is asking to:"), or a line
 * saying it asks for nothing.
 */
export function grantedScopeList(
  clientName: string,
  scopes: readonly DescribedScope[],
  lead: string,
): SafeHtml {
  return scopes.length === 0
    ? html`<p class="muted">${clientName} is not asking for access to any of your information.</p>`
    : html`<p><strong>${clientName}</strong> ${lead}</p>
        <ul class="scopes">
          ${scopes.map(({ scope, description }) =>
            description === undefined
              ? html`<li><span class="scope-name">${scope}</span></li> `
              : html`<li>${description}</li> `,
          )}
        </ul>`;
}

/** The caution on a page that approves a client that described itself; nothing for an operator's client. */
export function selfRegisteredCaution(client: SelfRegisteredClient | undefined): SafeHtml {
  if (client === undefined) return html``;
  const origin =
    client.documentHost === null
      ? html`This application registered itself`
      : html`This application is described by <strong>${client.documentHost}</strong>`;
  return html`<p class="notice caution">
    ${origin}: its name is its own claim, not checked by this
    service.${client.returnsTo !== null && html` Approving sends you to <strong>${client.returnsTo}</strong>.`}
  </p>`;
}

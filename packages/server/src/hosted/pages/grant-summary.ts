import type { SvcScopeDetail } from '@svc/contract';
import { html, type SafeHtml } from '../../http/pages/html.js';
import type { SelfRegisteredClient } from '../../signin/flow/authorize-outcomes.js';

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
 * saying it asks for nothing. A scope without a display name shows its raw name.
 */
export function grantedScopeList(
  clientName: string,
  scopes: readonly SvcScopeDetail[],
  lead: string,
): SafeHtml {
  return scopes.length === 0
    ? html`<p class="muted">${clientName} is not asking for access to any of your information.</p>`
    : html`<p><strong>${clientName}</strong> ${lead}</p>
        <ul class="scopes">
          ${scopes.map(scopeItem)}
        </ul>`;
}

/** A scope by its display name (a description under it), or by its raw name when it has none. */
function scopeItem({ scope, displayName, description }: SvcScopeDetail): SafeHtml {
  if (displayName === null) return html`<li><span class="scope-name">${scope}</span></li> `;
  const more = description === null ? html`` : html`<span class="scope-description">${description}</span>`;
  return html`<li>${displayName}${more}</li> `;
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

import { html, type SafeHtml } from '../../http/pages/html.js';

/** "to continue to <client>" under a sign-in heading, when the client is known. */
export function continueTo(clientName: string | undefined): SafeHtml {
  return html`${clientName !== undefined && html`<p class="lead">to continue to <strong>${clientName}</strong></p>`}`;
}

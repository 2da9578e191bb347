import { html } from '../../http/pages/html.js';
import { renderLayout } from '../../http/pages/layout.js';

export interface LoggedOutPageInput {
  readonly authBase: string;
}

/** The page /logout ends on when there is no client to return to. */
export function renderLoggedOutPage(input: LoggedOutPageInput): string {
  return renderLayout({
    authBase: input.authBase,
    title: 'Signed out',
    heading: 'You are signed out',
    body: html`<p>You have signed out of this browser. You can close this window.</p>`,
  });
}

import { html } from '../../http/pages/html.js';
import { renderLayout } from '../../http/pages/layout.js';

/** A page that only says something: a refused setup link, an ended session, an error. */
export function renderMessagePage(input: { portalBase: string; title: string; message: string }): string {
  return renderLayout({
    authBase: input.portalBase,
    title: input.title,
    body: html`<p>${input.message}</p>`,
  });
}

/** Unknown, used, expired or revoked: one message for all, so a link's state is not told to a guesser. */
export const LINK_REFUSED = Object.freeze({
  title: 'This setup link cannot be used',
  message:
    'The link has already been used, has expired or was withdrawn. Ask your administrator for a new setup link.',
});

/** The portal without a live session (never had one, expired, or its link was revoked). */
export const SESSION_ENDED = Object.freeze({
  title: 'Your setup session has ended',
  message: 'Open the setup link again, or ask your administrator for a new setup link.',
});

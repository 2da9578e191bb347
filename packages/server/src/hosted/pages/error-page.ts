import { html } from '../../http/pages/html.js';
import { renderLayout } from '../../http/pages/layout.js';

export interface ErrorPageInput {
  readonly authBase: string;
  /** A short title, also the heading ("This form has expired"). */
  readonly title: string;
  /** What happened and what to do, in words for the person at the browser; never internals. */
  readonly message: string;
  /** A same-origin path to go back to; dropped unless `isSafeBackHref` accepts it. */
  readonly backHref?: string;
  /** @default 'Go back' */
  readonly backLabel?: string;
}

/**
 * A path on this origin: one leading `/`, not `//` or `/\` (both mean another host to a browser), no
 * backslash or control character anywhere. Anything else could send the user to another site.
 */
export function isSafeBackHref(href: string): boolean {
  if (!/^\/(?![/\\])/.test(href)) return false;
  return ![...href].some((char) => {
    const code = char.charCodeAt(0);
    return char === '\\' || code < 0x20 || code === 0x7f;
  });
}

/** The hosted error page: a title, a message and, when safe, a link back. No stack, no codes. */
export function renderErrorPage(input: ErrorPageInput): string {
  const back =
    input.backHref !== undefined && isSafeBackHref(input.backHref)
      ? html`<p class="alt"><a href="${input.backHref}">${input.backLabel ?? 'Go back'}</a></p>`
      : html``;
  return renderLayout({
    authBase: input.authBase,
    title: input.title,
    body: html`<p>${input.message}</p>
      ${back}`,
  });
}

import { html, type SafeHtml } from './html.js';
import { STYLESHEET_PATH } from './styles.js';

/** The brand word, written `Svc` as in every exact identifier. */
export const BRAND = 'Svc';

export interface LayoutInput {
  /** The base path the page's surface serves the stylesheet under (for example `/svc/auth`). */
  readonly authBase: string;
  /** The page's name: the document title is "<title> · Svc" and the heading defaults to it. */
  readonly title: string;
  /** The visible heading when it differs from the title. */
  readonly heading?: string;
  /** The card's content under the heading. */
  readonly body: SafeHtml;
  /** A wider card, for a page of several sections (the SSO setup portal). */
  readonly wide?: boolean;
}

/**
 * The one page layout of the server-rendered pages (hosted sign-in, the SSO setup portal): a centered card with the brand word and a heading. No
 * scripts, no inline styles (see HOSTED_CONTENT_SECURITY_POLICY); the `data:` favicon keeps browsers
 * from asking the host for /favicon.ico; `noindex` keeps sign-in pages out of search engines.
 */
export function renderLayout(input: LayoutInput): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <meta name="robots" content="noindex, nofollow" />
        <title>${input.title} · ${BRAND}</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="${input.authBase}${STYLESHEET_PATH}" />
      </head>
      <body>
        <main class="${input.wide === true ? 'card card-wide' : 'card'}" aria-labelledby="page-title">
          <p class="brand">${BRAND}</p>
          <h1 id="page-title">${input.heading ?? input.title}</h1>
          ${input.body}
        </main>
      </body>
    </html> `.toString();
}

/**
 * The Content-Security-Policy of every server-rendered page response (hosted sign-in, the SSO setup portal).
 *
 * - `default-src 'none'` with no `script-src`: the pages work without JavaScript, so none may run at all
 *   (an injected `<script>` or `javascript:` URL is dead even if escaping ever failed).
 * - `style-src 'self'`: the one hashed stylesheet; no inline styles.
 * - `img-src 'self' data:`: the `data:` favicon that stops a request for /favicon.ico.
 * - `base-uri 'none'`: an injected `<base>` cannot redirect the forms' relative targets.
 * - `frame-ancestors 'none'` (with `X-Frame-Options: DENY` for older browsers): no clickjacking.
 * - No `form-action`: Chrome and Safari apply it to every redirect that follows a form submission
 *   (w3c/webappsec-csp#8), so `form-action 'self'` would block the 303 that ends a sign-in at the
 *   client's redirect_uri. Listing the client's origin is not enough either: a callback that redirects
 *   on to another origin, or to a native app's custom scheme, would be blocked too, silently. The forms
 *   only ever post to the pages' own paths, built by the server.
 */
export const HOSTED_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Headers of every hosted response (pages, redirects, errors and the stylesheet, which overrides
 * `cache-control` with its own long cache).
 *
 * `Referrer-Policy: same-origin`, not `no-referrer`: under `no-referrer` the Fetch standard makes the
 * browser send `Origin: null` on the pages' own form posts, which would defeat the antiforgery origin
 * check. `same-origin` still sends nothing to any other site (the client's redirect_uri gets no Referer).
 */
export const HOSTED_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': HOSTED_CONTENT_SECURITY_POLICY,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
});

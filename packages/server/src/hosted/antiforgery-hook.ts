import { singleHeader } from '../kernel/single-header.js';
import { ANTIFORGERY_FIELD, type Antiforgery, type IssuedAntiforgery } from '../http/antiforgery.js';
import {
  readAntiforgeryCookie,
  setAntiforgeryCookie,
  type CookieReply,
  type CookieRequest,
  type CookieSite,
} from '../http/cookies.js';
import { HostedAntiforgeryError } from './errors.js';

/**
 * The part of a request the check reads. Fastify's request (with @fastify/cookie and a parsed form body)
 * fits; the structural type keeps this module free of Fastify (layering rule 1).
 */
export interface AntiforgeryRequest extends CookieRequest {
  readonly method: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: unknown;
  /** The matched route's options; its `config` may be CROSS_SITE_POST. */
  readonly routeOptions?: { readonly config?: unknown };
}

/**
 * Route config (`{ config: CROSS_SITE_POST }`) of a POST that other sites send by design: a protocol
 * endpoint, not a form of these pages (RP-Initiated Logout's end_session_endpoint takes the relying
 * party's form post, which has no token and another origin). The hook lets such a route through, so it
 * must change nothing without a proof of its own (a verified ID token hint, or a confirmation form that
 * does carry a token).
 */
export const CROSS_SITE_POST = Object.freeze({ svcCrossSitePost: true });

function isCrossSitePost(config: unknown): boolean {
  return (
    typeof config === 'object' &&
    config !== null &&
    (config as { readonly svcCrossSitePost?: unknown }).svcCrossSitePost === true
  );
}

/** Methods that never change state and therefore need no token. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function formField(body: unknown, name: string): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  return Object.hasOwn(body, name) ? (body as Record<string, unknown>)[name] : undefined;
}

/**
 * A hook that refuses any unsafe-method request without a valid antiforgery cookie, form field and
 * origin, by throwing HostedAntiforgeryError (400, rendered by the hosted error handler). Register it as
 * `preValidation` (the form body is parsed by then, and nothing of the route has run), so that docs/reference/sign-in.md
 * "Antiforgery" (400 before any processing) holds; GET, HEAD and OPTIONS pass untouched, and so do the routes
 * marked CROSS_SITE_POST.
 */
export function requireAntiforgery(antiforgery: Antiforgery): (request: AntiforgeryRequest) => Promise<void> {
  return async (request) => {
    if (SAFE_METHODS.has(request.method.toUpperCase())) return;
    if (isCrossSitePost(request.routeOptions?.config)) return;
    const verdict = antiforgery.verify({
      cookieId: readAntiforgeryCookie(request),
      token: formField(request.body, ANTIFORGERY_FIELD),
      origin: singleHeader(request.headers.origin),
      referer: singleHeader(request.headers.referer),
    });
    if (!verdict.ok) throw new HostedAntiforgeryError(verdict.reason);
  };
}

/**
 * Issues an antiforgery token for this browser: reuses its antiforgery cookie, or sets a new one on
 * `reply` when it has none (or an unusable one).
 */
export function issueAntiforgery(
  antiforgery: Antiforgery,
  site: CookieSite,
  request: CookieRequest,
  reply: CookieReply,
): IssuedAntiforgery {
  const issued = antiforgery.issue(readAntiforgeryCookie(request));
  if (issued.newCookie) setAntiforgeryCookie(reply, site, issued.cookieId);
  return issued;
}

/**
 * For a GET page with a form: reuses or sets the browser's antiforgery cookie and returns the token to
 * put in the form's `_csrf` field (see `hiddenFormFields`).
 */
export function issueAntiforgeryToken(
  antiforgery: Antiforgery,
  site: CookieSite,
  request: CookieRequest,
  reply: CookieReply,
): string {
  return issueAntiforgery(antiforgery, site, request, reply).token;
}

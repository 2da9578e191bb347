import { browserPlace, type PlacedRequest } from '../../http/browser-place.js';
import type { BrowserContext } from '../../signin/flow/authorize-outcomes.js';
import { issueAntiforgery } from '../antiforgery-hook.js';
import type { Antiforgery } from '../../http/antiforgery.js';
import {
  readAntiforgeryCookie,
  readSessionCookie,
  type CookieReply,
  type CookieRequest,
  type CookieSite,
} from '../../http/cookies.js';

/**
 * One string value of a parsed query or form body, or undefined when it is absent, repeated or not a
 * string (a repeated field is never guessed at).
 */
export function singleValue(source: unknown, name: string): string | undefined {
  if (typeof source !== 'object' || source === null || Array.isArray(source)) return undefined;
  if (!Object.hasOwn(source, name)) return undefined;
  const value = (source as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

/** The part of a request the hosted sign-in reads (Fastify's request with @fastify/cookie fits). */
export interface SignInRequest extends CookieRequest, PlacedRequest {}

/**
 * The browser a hosted step comes from: its id is the antiforgery cookie's (the hosted hook has already
 * checked it on a POST), plus the issuer session cookie, and the address (for the audit trail) and user
 * agent that a token session started from this step keeps.
 */
export function browserContext(request: SignInRequest): BrowserContext {
  return {
    browserId: readAntiforgeryCookie(request),
    sessionToken: readSessionCookie(request),
    ...browserPlace(request),
  };
}

/** Where a hosted account operation comes from: its route and the client address (audit, limits). */
export function accountCallOf(request: {
  readonly ip: string;
  readonly url: string;
  readonly routeOptions: { readonly url?: string | undefined };
}): { route: string; ipAddress: string } {
  return { route: request.routeOptions.url ?? request.url, ipAddress: request.ip };
}

/**
 * The browser's id for a new authorization request: the antiforgery cookie's id, set now when the
 * browser has none, so that the request can be bound to this browser before its first page.
 */
export function ensureBrowserId(
  antiforgery: Antiforgery,
  site: CookieSite,
  request: CookieRequest,
  reply: CookieReply,
): string {
  return issueAntiforgery(antiforgery, site, request, reply).cookieId;
}

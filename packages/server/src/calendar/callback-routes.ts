import fastifyCookie from '@fastify/cookie';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Antiforgery } from '../http/antiforgery.js';
import {
  readAntiforgeryCookie,
  readSessionCookie,
  setAntiforgeryCookie,
  type CookieSite,
} from '../http/cookies.js';
import { jsonErrorHandler } from '../http/errors.js';
import { SvcTooManyAttemptsError } from '../kernel/errors.js';
import { html } from '../http/pages/html.js';
import { renderLayout } from '../http/pages/layout.js';
import { sendPage } from '../http/pages/reply.js';
import { HOSTED_SECURITY_HEADERS } from '../http/pages/security-headers.js';
import type { CalendarConsent } from './calendar-consent.js';
import { SvcCalendarError } from './errors.js';

export interface CalendarCallbackRoutesDeps {
  readonly consent: Pick<CalendarConsent, 'open' | 'finish'>;
  /** The hosted cookies' site: the auth base (where the stylesheet is served too) and the origin. */
  readonly site: CookieSite;
  /** The hosted antiforgery cookie's id is the browser's id a consent is bound to. */
  readonly antiforgery: Pick<Antiforgery, 'issue'>;
}

/**
 * The user's browser in a calendar consent (docs/reference/calendar.md "Bound to the browser and its user"):
 *
 * - GET /calendar/consent?token=…: the authorization URL a consent's start answers. In a browser signed
 *   in as the consent's user, a 303 to the provider, the consent bound to this browser (its antiforgery
 *   id, given one here when it has none); otherwise a 303 back to the ReturnUri with `error`.
 * - docs/reference/calendar.md "The callback": once the state is taken, the browser goes back to the
 *   returnUri with `calendarConnectionId` on success or one `error` on failure. A callback in
 *   another browser, or in one no longer signed in as the consent's user, is such an error.
 *
 * A link or state that is unknown, used, changed or expired names no ReturnUri: it is a 400
 * `invalid_state`, never a redirect (429 once too many such states came from the address). The queries
 * are read raw; logs replace `token`, `code` and `state` (http/logging.ts).
 */
export function calendarCallbackRoutes(deps: CalendarCallbackRoutesDeps): FastifyPluginAsync {
  const { site } = deps;
  return async (app) => {
    if (!app.hasReplyDecorator('setCookie')) await app.register(fastifyCookie);
    // The user's browser is what arrives here: a refusal is a page to it, and JSON to anything else.
    app.setErrorHandler((error, request, reply) => {
      if (!wantsPage(request)) return jsonErrorHandler(error, request, reply);
      if (error instanceof SvcCalendarError && error.code === 'invalid_state') {
        return refusalPage(reply, site.authBase, error.message, 400);
      }
      if (error instanceof SvcTooManyAttemptsError) {
        reply.header('retry-after', String(error.retryAfterSeconds));
        return refusalPage(reply, site.authBase, error.message, 429);
      }
      return jsonErrorHandler(error, request, reply);
    });
    app.get('/calendar/consent', async (request, reply) => {
      const issued = deps.antiforgery.issue(readAntiforgeryCookie(request));
      if (issued.newCookie) setAntiforgeryCookie(reply, site, issued.cookieId);
      const token = new URL(request.url, 'http://consent').searchParams.get('token');
      const browser = { browserId: issued.cookieId, sessionToken: readSessionCookie(request) };
      return redirectOnward(
        request,
        reply,
        await deps.consent.open(token, browser, { ipAddress: request.ip }),
      );
    });

    app.get('/calendar/callback', async (request, reply) => {
      const query = new URL(request.url, 'http://callback').searchParams;
      const browser = { browserId: readAntiforgeryCookie(request), sessionToken: readSessionCookie(request) };
      return redirectOnward(
        request,
        reply,
        await deps.consent.finish(query, browser, { ipAddress: request.ip }),
      );
    });
  };
}

/** The 303 of both routes, the unexpected failure logged. */
function redirectOnward(
  request: FastifyRequest,
  reply: FastifyReply,
  result: { readonly redirectUrl: string; readonly unexpected?: unknown },
): FastifyReply {
  if (result.unexpected !== undefined) {
    request.log.error({ err: result.unexpected, reqId: request.id }, 'calendar consent failed');
  }
  // The next page (the provider's, or the app's) must not learn this URL (its code) through a Referer.
  return reply
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .redirect(result.redirectUrl, 303);
}

function wantsPage(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/html');
}

function refusalPage(
  reply: FastifyReply,
  authBase: string,
  message: string,
  status: 400 | 429,
): FastifyReply {
  reply.headers(HOSTED_SECURITY_HEADERS);
  return sendPage(
    reply,
    renderLayout({
      authBase,
      title: 'Calendar consent',
      heading: 'This calendar consent cannot be used',
      body: html`<p>${message}</p>`,
    }),
    status,
  );
}

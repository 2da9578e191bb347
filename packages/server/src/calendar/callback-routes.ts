import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { jsonErrorHandler } from '../http/errors.js';
import { SvcTooManyAttemptsError } from '../kernel/errors.js';
import { html } from '../http/pages/html.js';
import { renderLayout } from '../http/pages/layout.js';
import { sendPage } from '../http/pages/reply.js';
import { HOSTED_SECURITY_HEADERS } from '../http/pages/security-headers.js';
import type { CalendarConsent } from './calendar-consent.js';
import { SvcCalendarError } from './errors.js';

export interface CalendarCallbackRoutesDeps {
  readonly consent: Pick<CalendarConsent, 'finish'>;
  /** Where the hosted stylesheet is served (the auth base), for the page a browser is shown. */
  readonly authBase: string;
}

/**
 * SPEC.md: "GET /calendar/callback (under /svc/auth) | calendar consent callback …; redirects to the
 * request's ReturnUri adding calendarConnectionId on success or error on failure". A state that is
 * unknown, used or expired names no ReturnUri: it is a 400 `invalid_state`, never a redirect (429 once
 * too many such states came from the address). The query (code and state) is read raw; logs replace
 * both (http/logging.ts).
 */
export function calendarCallbackRoutes(deps: CalendarCallbackRoutesDeps): FastifyPluginAsync {
  return async (app) => {
    // The user's browser is what arrives here: a refusal is a page to it, and JSON to anything else.
    app.setErrorHandler((error, request, reply) => {
      if (!wantsPage(request)) return jsonErrorHandler(error, request, reply);
      if (error instanceof SvcCalendarError && error.code === 'invalid_state') {
        return refusalPage(reply, deps.authBase, error.message, 400);
      }
      if (error instanceof SvcTooManyAttemptsError) {
        reply.header('retry-after', String(error.retryAfterSeconds));
        return refusalPage(reply, deps.authBase, error.message, 429);
      }
      return jsonErrorHandler(error, request, reply);
    });
    app.get('/calendar/callback', async (request, reply) => {
      const query = new URL(request.url, 'http://callback').searchParams;
      const result = await deps.consent.finish(query, { ipAddress: request.ip });
      if (result.unexpected !== undefined) {
        request.log.error({ err: result.unexpected, reqId: request.id }, 'calendar consent failed');
      }
      // The page the app shows next must not learn this URL (its code) through a Referer.
      return reply
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .redirect(result.redirectUrl, 303);
    });
  };
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

import type { FastifyPluginAsync } from 'fastify';
import { jsonErrorHandler } from '../http/errors.js';
import type { CalendarConsent } from './calendar-consent.js';

export interface CalendarCallbackRoutesDeps {
  readonly consent: Pick<CalendarConsent, 'finish'>;
}

/**
 * SPEC.md: "GET /calendar/callback (under /svc/auth) | calendar consent callback …; redirects to the
 * request's ReturnUri adding calendarConnectionId on success or error on failure". A state that is
 * unknown, used or expired names no ReturnUri: it is a 400 `invalid_state`, never a redirect. The
 * query (code and state) is read raw; logs replace both (http/logging.ts).
 */
export function calendarCallbackRoutes(deps: CalendarCallbackRoutesDeps): FastifyPluginAsync {
  return async (app) => {
    app.setErrorHandler(jsonErrorHandler);
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

import {
  svcCalendarAuthorizationUrlRequestSchema,
  svcOwnCalendarConnectionsRequestSchema,
  svcRevokeCalendarConnectionRequestSchema,
} from '@svc/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { SvcCalendarService } from '../app/facades/svc-calendar-service.js';
import { parseBody } from '../http/body.js';
import { presentedRefreshToken, requirePresentedRefreshToken } from './refresh-token-proof.js';
import { directErrorHandler } from './routes.js';

export interface CalendarDirectRoutesDeps {
  readonly calendar: SvcCalendarService;
}

// A missing refresh token is the 401 of an inactive one, a malformed one a 400 (refresh-token-proof.ts).
const authorizationUrlBody = svcCalendarAuthorizationUrlRequestSchema.extend({
  refreshToken: presentedRefreshToken,
});
const ownConnectionsBody = svcOwnCalendarConnectionsRequestSchema.extend({
  refreshToken: presentedRefreshToken,
});
const revokeBody = svcRevokeCalendarConnectionRequestSchema.extend({ refreshToken: presentedRefreshToken });

/**
 * The calendar connections of a first-party app's signed-in user (mounted at `{authBase}` while calendar
 * connections are on); the refresh token of the user's session proves who asks:
 *
 * - POST /calendar/authorization-url {refreshToken, connectionId, returnUri, scopes?} → 200
 *   {authorizationUrl, expiresAt}: send the user's browser there (signed in to the hosted pages as the
 *   user: docs/reference/calendar.md "Bound to the browser and its user"); it comes back to returnUri.
 * - POST /calendar/connections {refreshToken, limit?, cursor?} → 200 a page of the user's connections.
 * - POST /calendar/connections/revoke {refreshToken, calendarConnectionId} → 200 the revoked connection.
 */
export function calendarDirectRoutes(deps: CalendarDirectRoutesDeps): FastifyPluginAsync {
  const { calendar } = deps;
  return async (app) => {
    app.setErrorHandler(directErrorHandler);
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.post('/calendar/authorization-url', async (request) => {
      const body = parseBody(authorizationUrlBody, request.body);
      return calendar.createAuthorizationUrlAsync({
        ...body,
        refreshToken: requirePresentedRefreshToken(body.refreshToken),
      });
    });

    app.post('/calendar/connections', async (request) => {
      const body = parseBody(ownConnectionsBody, request.body);
      return calendar.listOwnConnectionsAsync({
        ...body,
        refreshToken: requirePresentedRefreshToken(body.refreshToken),
      });
    });

    app.post('/calendar/connections/revoke', async (request) => {
      const body = parseBody(revokeBody, request.body);
      return calendar.revokeOwnConnectionAsync(
        { ...body, refreshToken: requirePresentedRefreshToken(body.refreshToken) },
        { ipAddress: request.ip },
      );
    });
  };
}

import { calendarConnectionListQuerySchema, calendarConnectionPathSchema } from '@svc/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { SvcCalendarService } from '../app/facades/svc-calendar-service.js';
import { parseParams, parseQuery } from '../http/body.js';
import { jsonErrorHandler } from '../http/errors.js';
import { operatorActor } from '../http/operator-request.js';

/**
 * The operator routes of calendar connections, registered at `/svc/admin/calendar/api` behind the
 * operator guard while calendar connections are on (docs/reference/calendar.md: mapped only when calendar
 * connections are enabled): `GET /connections?userId=&limit=&cursor=`, `GET /connections/{id}`, `POST
 * /connections/{id}/revoke` and `DELETE /connections/{id}`. No answer carries a token.
 */
export function calendarAdminRoutes(deps: { calendar: SvcCalendarService }): FastifyPluginAsync {
  const { calendar } = deps;
  return async (app) => {
    app.setErrorHandler(jsonErrorHandler);
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.get('/connections', async (request) =>
      calendar.listConnectionsAsync(parseQuery(calendarConnectionListQuerySchema, request.query)),
    );

    app.get('/connections/:id', async (request) =>
      calendar.getConnectionAsync(parseParams(calendarConnectionPathSchema, request.params).id),
    );

    app.post('/connections/:id/revoke', async (request) =>
      calendar.revokeConnectionAsync(
        parseParams(calendarConnectionPathSchema, request.params).id,
        operatorActor(request),
      ),
    );

    app.delete('/connections/:id', async (request) =>
      calendar.deleteConnectionAsync(
        parseParams(calendarConnectionPathSchema, request.params).id,
        operatorActor(request),
      ),
    );
  };
}

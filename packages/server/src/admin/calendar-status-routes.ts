import type { SvcCalendarStatus } from '@svc/contract';
import type { FastifyPluginAsync } from 'fastify';
import { jsonErrorHandler } from '../http/errors.js';

/**
 * `GET /calendar/status` of the auth operator API: whether calendar connections are on
 * (docs/reference/calendar.md). Their own operator routes are absent while they are off, so the console
 * asks here instead of reading a 404 as "off". Behind the operator guard.
 */
export function calendarStatusAdminRoutes(deps: { enabled: boolean }): FastifyPluginAsync {
  const status: SvcCalendarStatus = { enabled: deps.enabled };
  return async (app) => {
    app.setErrorHandler(jsonErrorHandler);
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });
    app.get('/calendar/status', async () => status);
  };
}

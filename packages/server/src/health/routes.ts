import type { FastifyPluginAsync } from 'fastify';
import type { Readiness } from './readiness.js';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../kernel/errors.js';

export interface HealthRoutesDeps {
  readonly readiness: () => Promise<Readiness>;
}

/**
 * Health checks for load balancers and orchestrators, without authentication and never cached:
 * `/health/live` answers while the process serves; `/health/ready` while it can also reach its database
 * (docs/deploy.md "Health checks").
 */
export function healthRoutes(deps: HealthRoutesDeps): FastifyPluginAsync {
  return async (app) => {
    app.get('/health/live', async (_request, reply) =>
      reply.header('cache-control', 'no-store').send({ status: 'live' }),
    );
    app.get('/health/ready', async (_request, reply) => {
      const readiness = await deps.readiness();
      reply.header('cache-control', 'no-store');
      if (readiness.ready) return reply.send({ status: 'ready' });
      return reply
        .code(503)
        .header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS))
        .send({ status: 'unavailable', reason: readiness.reason, message: readiness.message });
    });
  };
}

import type { FastifyInstance } from 'fastify';
import { safeEqual } from '../kernel/crypto.js';
import { sendNotFound } from './errors.js';

/**
 * Operator authorization for an admin surface: `Authorization: Bearer <SVC_ADMIN_TOKEN>`, compared in
 * constant time. It runs on onRequest, before the body is read, so an unauthorized caller learns nothing
 * (not even whether its body parses): every unauthorized request gets exactly the unknown-route 404.
 */
export function requireOperator(app: FastifyInstance, adminToken: string | undefined): void {
  app.addHook('onRequest', async (request, reply) => {
    const header = request.headers.authorization;
    const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
    const presented = match?.[1];
    if (adminToken === undefined || presented === undefined || !safeEqual(presented, adminToken)) {
      return sendNotFound(reply);
    }
  });
}

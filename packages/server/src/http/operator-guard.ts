import type { FastifyInstance } from 'fastify';
import type { OperatorTokenCheck } from '../admin/operator-token.js';
import { retryAfterPhrase, SvcTooManyAttemptsError } from '../kernel/errors.js';
import { sendNotFound } from './errors.js';

/**
 * Operator authorization for an admin surface: `Authorization: Bearer <SVC_ADMIN_TOKEN>`. It runs on
 * onRequest, before the body is read, so an unauthorized caller learns nothing (not even whether its
 * body parses): every unauthorized request gets exactly the unknown-route 404. An address locked for
 * too many wrong tokens gets a 429 that says when to retry, whatever token it sends.
 */
export function requireOperator(app: FastifyInstance, operatorToken: OperatorTokenCheck): void {
  app.addHook('onRequest', async (request, reply) => {
    const header = request.headers.authorization;
    const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
    const decision = await operatorToken.decide(match?.[1], request.ip);
    if (decision.kind === 'refused') return sendNotFound(reply);
    if (decision.kind === 'locked') {
      throw new SvcTooManyAttemptsError(
        `Too many requests with a wrong operator token from this address; retry ${retryAfterPhrase(decision.retryAfterMs)}.`,
        decision.retryAfterMs,
      );
    }
  });
}

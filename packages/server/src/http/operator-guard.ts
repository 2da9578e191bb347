import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SvcError } from '../kernel/errors.js';
import type { OperatorSessionCheck, OperatorTokenVerifier } from '../kernel/operator-session.js';
import { sendNotFound } from './errors.js';
import { singleHeader } from '../kernel/single-header.js';

/** The user id of the operator whose dashboard session authorized a request (for the audit trail). */
const operatorIds = new WeakMap<FastifyRequest, string>();

/** The signed-in operator of a request a dashboard session authorized; undefined for the bearer token. */
export function operatorIdOf(request: FastifyRequest): string | undefined {
  return operatorIds.get(request);
}

/** What a dashboard call (or sign-out) whose antiforgery token or origin is wrong is told. */
export const DASHBOARD_CSRF_MESSAGE =
  'This request did not come from the dashboard. Reload it and try again.';

/** A dashboard call whose antiforgery token or origin is wrong. */
class DashboardCsrfError extends SvcError {
  constructor() {
    super('csrf_failed', DASHBOARD_CSRF_MESSAGE, { status: 403 });
  }
}

/**
 * Operator authorization for an admin surface: `Authorization: Bearer <SVC_ADMIN_TOKEN>`, or (without
 * that header) a bundled dashboard's session cookie, whose state-changing calls must carry its
 * antiforgery token (`x-svc-csrf`) from the PublicOrigin. It runs on onRequest, before the body is read,
 * so an unauthorized caller learns nothing (not even whether its body parses): every unauthorized
 * request gets exactly the unknown-route 404, however many came before it from the same address (no
 * lock: the right token or session always works, docs/decisions/operator-token-failures.md).
 */
export function requireOperator(
  app: FastifyInstance,
  operatorToken: OperatorTokenVerifier,
  sessions?: OperatorSessionCheck,
): void {
  app.addHook('onRequest', async (request, reply) => {
    const header = request.headers.authorization;
    if (header === undefined && sessions !== undefined) {
      const session = await sessions.decide({
        cookieHeader: request.headers.cookie,
        safe: request.method === 'GET' || request.method === 'HEAD',
        csrfToken: singleHeader(request.headers['x-svc-csrf']),
        origin: singleHeader(request.headers.origin),
        referer: singleHeader(request.headers.referer),
      });
      if (session?.kind === 'operator') {
        operatorIds.set(request, session.operatorId);
        return;
      }
      if (session?.kind === 'csrf_failed') throw new DashboardCsrfError();
      if (session !== undefined) return sendNotFound(reply);
    }
    const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
    const decision = await operatorToken.decide(match?.[1], request.ip);
    if (decision.kind === 'refused') return sendNotFound(reply);
  });
}

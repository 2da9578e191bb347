import { pageQuerySchema } from '@svc/contract';
import type { FastifyRequest } from 'fastify';
import type { AdminActor } from '../audit/actor.js';
import { parseQuery } from './body.js';
import { operatorIdOf } from './operator-guard.js';

/** The audit actor of an operator request; the guard in front of the operator APIs has authorized it. */
export function operatorActor(request: FastifyRequest): AdminActor {
  const operatorId = operatorIdOf(request);
  // A dashboard session names the operator; the bearer token is the deployment's, nobody's in particular.
  return operatorId === undefined
    ? { actorType: 'operator', ipAddress: request.ip }
    : { actorType: 'operator', actorId: operatorId, ipAddress: request.ip };
}

/** A list page request without undefined properties (exactOptionalPropertyTypes). */
export function pageRequest(query: unknown): { limit: number; cursor?: string } {
  const { limit, cursor } = parseQuery(pageQuerySchema, query);
  return cursor === undefined ? { limit } : { limit, cursor };
}

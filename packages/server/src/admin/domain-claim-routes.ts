import {
  domainClaimPathSchema,
  organizationDomainsPathSchema,
  pageQuerySchema,
  startDomainVerificationBodySchema,
} from '@svc/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { Operations } from '../app/facades/operations.js';
import type { SvcAdminDomainClaims } from '../app/facades/svc-admin-domain-claims.js';
import { parseBody, parseParams, parseQuery } from '../http/body.js';
import { jsonErrorHandler } from '../http/errors.js';
import { operatorActor } from '../http/operator-request.js';

/**
 * The operator routes of organization domain claims (docs/reference/organizations.md "Domain claims"):
 * `POST /organizations/{organizationId}/domains` {domain} starts (or returns) the claim with the TXT
 * record to publish, `GET` the same path lists the claims and `GET …/domains/{id}` reads one,
 * `POST …/domains/{id}/verify` looks the record up (200 either way: `status` says whether it was
 * found, `lastCheck` why not) and `POST …/domains/{id}/revoke` ends a claim. The app registers this
 * plugin inside the operator API at `/svc/admin/auth/api`, behind the operator guard.
 */
export function domainClaimAdminRoutes(deps: {
  admin: Operations<SvcAdminDomainClaims>;
}): FastifyPluginAsync {
  const { admin } = deps;
  return async (app) => {
    app.setErrorHandler(jsonErrorHandler);
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.post('/organizations/:organizationId/domains', async (request, reply) => {
      const { organizationId } = parseParams(organizationDomainsPathSchema, request.params);
      const { domain } = parseBody(startDomainVerificationBodySchema, request.body);
      const claim = await admin.startVerificationAsync({ organizationId, domain }, operatorActor(request));
      return reply.code(201).send(claim);
    });

    app.get('/organizations/:organizationId/domains', async (request) => {
      const { limit, cursor } = parseQuery(pageQuerySchema, request.query);
      return admin.listDomainClaimsAsync(
        parseParams(organizationDomainsPathSchema, request.params).organizationId,
        cursor === undefined ? { limit } : { limit, cursor },
      );
    });

    app.get('/organizations/:organizationId/domains/:id', async (request) =>
      admin.getDomainClaimAsync(parseParams(domainClaimPathSchema, request.params)),
    );

    app.post('/organizations/:organizationId/domains/:id/verify', async (request) =>
      admin.confirmOwnershipAsync(parseParams(domainClaimPathSchema, request.params), operatorActor(request)),
    );

    app.post('/organizations/:organizationId/domains/:id/revoke', async (request) =>
      admin.revokeDomainClaimAsync(
        parseParams(domainClaimPathSchema, request.params),
        operatorActor(request),
      ),
    );
  };
}

import {
  createInvitationBodySchema,
  invitationListQuerySchema,
  organizationPathSchema,
  recordPathSchema,
  revokeInvitationBodySchema,
} from '@svc/contract';
import type { FastifyPluginAsync } from 'fastify';
import { parseBody, parseParams, parseQuery } from '../http/body.js';
import { jsonErrorHandler } from '../http/errors.js';
import type { InvitationService } from '../signin/methods/invitation/invitation-service.js';
import { operatorActor } from '../http/operator-request.js';

/**
 * The operator routes of docs/reference/organizations.md "Invitations (operator side)". The app registers
 * this plugin inside the operator API at `/svc/admin/auth/api`, behind the operator guard. Answers never
 * carry the token: it only leaves in the emailed InviteUrl.
 */
export function invitationAdminRoutes(deps: { invitations: InvitationService }): FastifyPluginAsync {
  const { invitations } = deps;
  return async (app) => {
    app.setErrorHandler(jsonErrorHandler);
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.post('/organizations/:organizationId/invitations', async (request, reply) => {
      const { organizationId } = parseParams(organizationPathSchema, request.params);
      const body = parseBody(createInvitationBodySchema, request.body);
      const created = await invitations.createEmailInvitation(
        { organizationId, ...body },
        operatorActor(request),
      );
      return reply.code(201).send(created);
    });

    app.get('/organizations/:organizationId/invitations', async (request) => {
      const { organizationId } = parseParams(organizationPathSchema, request.params);
      const { limit, cursor, status } = parseQuery(invitationListQuerySchema, request.query);
      return invitations.listEmailInvitations(organizationId, { limit, cursor, status });
    });

    app.get('/invitations/:id', async (request) =>
      invitations.getEmailInvitation(parseParams(recordPathSchema, request.params).id),
    );

    app.post('/invitations/:id/resend', async (request) =>
      invitations.resendEmailInvitation(
        parseParams(recordPathSchema, request.params),
        operatorActor(request),
      ),
    );

    app.post('/invitations/:id/revoke', async (request) => {
      const { id } = parseParams(recordPathSchema, request.params);
      // The reason is optional, so an empty POST (no body) revokes without one.
      const { reason } = parseBody(revokeInvitationBodySchema, request.body ?? {});
      return invitations.revokeEmailInvitation({ id, reason }, operatorActor(request));
    });
  };
}

import {
  createInvitationBodySchema,
  invitationListQuerySchema,
  revokeInvitationBodySchema,
} from '@svc/contract';
import type { FastifyPluginAsync } from 'fastify';
import { parseBody, parseQuery } from '../http/body.js';
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

    app.post<{ Params: { organizationId: string } }>(
      '/organizations/:organizationId/invitations',
      async (request, reply) => {
        const body = parseBody(createInvitationBodySchema, request.body);
        const created = await invitations.createEmailInvitation(
          { organizationId: request.params.organizationId, ...body },
          operatorActor(request),
        );
        return reply.code(201).send(created);
      },
    );

    app.get<{ Params: { organizationId: string } }>(
      '/organizations/:organizationId/invitations',
      async (request) => {
        const { limit, cursor, status } = parseQuery(invitationListQuerySchema, request.query);
        return invitations.listEmailInvitations(request.params.organizationId, { limit, cursor, status });
      },
    );

    app.get<{ Params: { id: string } }>('/invitations/:id', async (request) =>
      invitations.getEmailInvitation(request.params.id),
    );

    app.post<{ Params: { id: string } }>('/invitations/:id/resend', async (request) =>
      invitations.resendEmailInvitation({ id: request.params.id }, operatorActor(request)),
    );

    app.post<{ Params: { id: string } }>('/invitations/:id/revoke', async (request) => {
      // The reason is optional, so an empty POST (no body) revokes without one.
      const body = parseBody(revokeInvitationBodySchema, request.body ?? {});
      return invitations.revokeEmailInvitation(
        { id: request.params.id, reason: body.reason },
        operatorActor(request),
      );
    });
  };
}

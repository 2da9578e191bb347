import { userPathSchema } from '@svc/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { AccountOperations } from '../account/account-operations.js';
import type { Operations } from '../app/facades/operations.js';
import type { SvcAdminRecords } from '../app/facades/svc-admin-records.js';
import { parseParams } from '../http/body.js';
import { jsonErrorHandler } from '../http/errors.js';
import { operatorActor } from '../http/operator-request.js';

/**
 * What an operator does for a user who is stuck (docs/reference/organizations.md "Operator support for a
 * user"), inside the operator API at `/svc/admin/auth/api` behind the operator guard:
 *
 * - `POST /users/{id}/password-reset`: the reset email; 202 `{ delivery, deliveryId, expiresAt }`, 409
 *   for a user without an address or deactivated, 502 when the mail server refused it;
 * - `GET /users/{id}/mfa`: the user's authenticators and unused recovery codes (never a secret);
 * - `POST /users/{id}/mfa/reset`: removes them all, for a user who lost their authenticator.
 */
export function userSupportAdminRoutes(deps: {
  admin: Operations<SvcAdminRecords>;
  account: AccountOperations;
}): FastifyPluginAsync {
  const { admin, account } = deps;
  return async (app) => {
    app.setErrorHandler(jsonErrorHandler);
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });
    app.post('/users/:userId/password-reset', async (request, reply) => {
      const { userId } = parseParams(userPathSchema, request.params);
      return reply.code(202).send(await account.sendOperatorPasswordReset(userId, operatorActor(request)));
    });

    app.get('/users/:userId/mfa', async (request) =>
      admin.getUserMfaAsync(parseParams(userPathSchema, request.params).userId),
    );

    app.post('/users/:userId/mfa/reset', async (request) =>
      admin.resetUserMfaAsync(parseParams(userPathSchema, request.params).userId, operatorActor(request)),
    );
  };
}

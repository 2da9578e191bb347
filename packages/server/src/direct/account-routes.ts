import { clientIdSchema, opaqueTokenSchema } from '@svc/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { directErrorHandler, directRouteContext } from './routes.js';
import { parseBody } from '../http/body.js';
import type { AccountOperations } from '../account/account-operations.js';

export interface AccountDirectRoutesDeps {
  readonly account: AccountOperations;
}

const text = (max: number) => z.string().min(1).max(max);
// Unknown keys are ignored, as in every direct body: a `resetUrlTemplate` sent over HTTP has no effect.
const emailBody = z.object({ email: text(254), clientId: clientIdSchema.nullish() });
// Reset and verification tokens are Svc's (printable ASCII): a control character is a 400 at once.
const resetBody = z.object({ token: opaqueTokenSchema, newPassword: z.string() });
const tokenBody = z.object({ token: opaqueTokenSchema });

/**
 * docs/reference/sign-in.md "Direct JSON helpers" for password reset and email verification (mounted at `{authBase}`):
 *
 * - POST /password/forgot {email, clientId?} and POST /password/reset-email (same body) → 200
 *   {maskedEmail, expiresAt, nextAllowedSendAt, message}, identical for every address (a send the rate
 *   limit refuses: 429 `{nextAllowedSendAt, error: 'resend_too_soon', message}`). Over HTTP both are
 *   the public form: docs/reference/sign-in.md "Direct JSON helpers" says the ResetUrlTemplate is "not accepted by public endpoints", so it is
 *   in-process only (`sendPasswordResetEmailAsync`).
 * - POST /password/reset {token, newPassword} → 204; 400 `invalid_token` or a validation error.
 * - POST /email/verification-email and its alias /email/verification-token {email} → 200 generic result;
 *   the alias sends too and never returns a token.
 * - POST /email/verify {token} → 204. The page the emailed link opens (GET /email/verify and its
 *   confirm form) is a hosted page: hosted/account/email-verification-routes.ts.
 */
export function accountDirectRoutes(deps: AccountDirectRoutesDeps): FastifyPluginAsync {
  const { account } = deps;
  return async (app) => {
    app.setErrorHandler(directErrorHandler);
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    const forgot = async (request: FastifyRequest) => {
      const body = parseBody(emailBody, request.body);
      return account.requestPasswordResetEmail(
        { email: body.email, clientId: body.clientId ?? null },
        directRouteContext(request),
      );
    };
    app.post('/password/forgot', forgot);
    app.post('/password/reset-email', forgot);

    app.post('/password/reset', async (request, reply) => {
      await account.resetPassword(parseBody(resetBody, request.body), directRouteContext(request));
      return reply.code(204).send();
    });

    const verificationEmail = async (request: FastifyRequest) =>
      account.createEmailVerificationToken(
        { email: parseBody(emailBody, request.body).email },
        directRouteContext(request),
      );
    app.post('/email/verification-email', verificationEmail);
    app.post('/email/verification-token', verificationEmail);

    app.post('/email/verify', async (request, reply) => {
      await account.verifyEmail(parseBody(tokenBody, request.body), directRouteContext(request));
      return reply.code(204).send();
    });
  };
}

import fastifyFormbody from '@fastify/formbody';
import { clientIdSchema, opaqueTokenSchema } from '@svc/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { directErrorHandler, directRouteContext } from '../direct/routes.js';
import { HOSTED_SECURITY_HEADERS } from '../hosted/security-headers.js';
import { parseBody } from '../http/body.js';
import { SvcError } from '../kernel/errors.js';
import type { AccountOperations } from './account-operations.js';
import { renderEmailVerificationPage, renderEmailVerificationResult } from './email-verification-page.js';

export interface AccountDirectRoutesDeps {
  readonly account: AccountOperations;
  /** The auth base the plugin is mounted at (`/svc/auth`): the page's form and stylesheet live under it. */
  readonly authBase: string;
}

const text = (max: number) => z.string().min(1).max(max);
// Unknown keys are ignored, as in every direct body: a `resetUrlTemplate` sent over HTTP has no effect.
const emailBody = z.object({ email: text(254), clientId: clientIdSchema.nullish() });
// Reset and verification tokens are Svc's (printable ASCII): a control character is a 400 at once.
const resetBody = z.object({ token: opaqueTokenSchema, newPassword: z.string() });
const tokenBody = z.object({ token: opaqueTokenSchema });
const tokenQuery = z.object({ token: opaqueTokenSchema });

/**
 * SPEC.md "Direct JSON helpers" for password reset and email verification (mounted at `{authBase}`):
 *
 * - POST /password/forgot {email, clientId?} and POST /password/reset-email (same body) → 200
 *   {maskedEmail, expiresAt, nextAllowedSendAt, message}, identical for every address. Over HTTP both are
 *   the public form: SPEC.md says the ResetUrlTemplate is "not accepted by public endpoints", so it is
 *   in-process only (`sendPasswordResetEmailAsync`).
 * - POST /password/reset {token, newPassword} → 204; 400 `invalid_token` or a validation error.
 * - POST /email/verification-email and its alias /email/verification-token {email} → 200 generic result;
 *   the alias sends too and never returns a token.
 * - POST /email/verify {token} → 204; GET /email/verify?token= → the confirmation page, whose button
 *   posts (form-encoded) to POST /email/verify/confirm → result page.
 */
export function accountDirectRoutes(deps: AccountDirectRoutesDeps): FastifyPluginAsync {
  const { account, authBase } = deps;
  return async (app) => {
    app.setErrorHandler(directErrorHandler);
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    const forgot = async (request: FastifyRequest) => {
      const body = parseBody(emailBody, request.body);
      return account.requestPasswordResetEmailAsync(
        { email: body.email, clientId: body.clientId ?? null },
        directRouteContext(request),
      );
    };
    app.post('/password/forgot', forgot);
    app.post('/password/reset-email', forgot);

    app.post('/password/reset', async (request, reply) => {
      await account.resetPasswordAsync(parseBody(resetBody, request.body));
      return reply.code(204).send();
    });

    const verificationEmail = async (request: FastifyRequest) =>
      account.createEmailVerificationTokenAsync(
        { email: parseBody(emailBody, request.body).email },
        directRouteContext(request),
      );
    app.post('/email/verification-email', verificationEmail);
    app.post('/email/verification-token', verificationEmail);

    app.post('/email/verify', async (request, reply) => {
      await account.verifyEmailAsync(parseBody(tokenBody, request.body), directRouteContext(request));
      return reply.code(204).send();
    });

    // The browser page and its form post: HTML answers with the hosted pages' security headers.
    await app.register(async (page) => {
      await page.register(fastifyFormbody);
      page.addHook('onSend', async (_request, reply) => {
        reply.headers({ ...HOSTED_SECURITY_HEADERS, 'referrer-policy': 'no-referrer' });
      });
      const sendHtml = (status: number, body: string) => ({ status, body });
      page.get('/email/verify', async (request, reply) => {
        const parsed = tokenQuery.safeParse(request.query);
        const out = parsed.success
          ? sendHtml(200, renderEmailVerificationPage(authBase, parsed.data.token))
          : sendHtml(400, renderEmailVerificationResult(authBase, false));
        return reply.code(out.status).type('text/html; charset=utf-8').send(out.body);
      });
      page.post('/email/verify/confirm', async (request, reply) => {
        const parsed = tokenBody.safeParse(request.body);
        let verified = false;
        if (parsed.success) {
          try {
            await account.verifyEmailAsync({ token: parsed.data.token }, directRouteContext(request));
            verified = true;
          } catch (error) {
            if (!(error instanceof SvcError) || error.status >= 500) throw error;
          }
        }
        return reply
          .code(verified ? 200 : 400)
          .type('text/html; charset=utf-8')
          .send(renderEmailVerificationResult(authBase, verified));
      });
    });
  };
}

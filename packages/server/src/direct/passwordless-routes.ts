import {
  svcEmailOtpStartRequestSchema,
  svcEmailOtpVerifyRequestSchema,
  svcMagicLinkCompleteRequestSchema,
  svcMagicLinkStartRequestSchema,
} from '@svc/contract';
import type { FastifyPluginAsync } from 'fastify';
import { directErrorHandler, directRouteContext } from './routes.js';
import { parseBody } from '../http/body.js';
import type { PasswordlessSignIn } from '../signin/methods/email-otp/passwordless-sign-in.js';

export interface PasswordlessDirectRoutesDeps {
  readonly passwordless: Pick<
    PasswordlessSignIn,
    'requestEmailOtp' | 'verifyEmailOtp' | 'requestMagicLink' | 'completeMagicLink'
  >;
}

/**
 * docs/reference/sign-in.md "Direct JSON helpers" for email OTP and magic links, mounted by app/http.ts at `{auth_base}`:
 * POST /email-otp/start → 200 {challengeToken, maskedEmail, expiresAt, nextAllowedSendAt};
 * POST /email-otp/verify → 200 SvcLoginResult; POST /magic-link/start → 200 {maskedEmail, expiresAt,
 * nextAllowedSendAt}; POST /magic-link/complete → 200 SvcLoginResult. Errors as the other direct
 * helpers (`{error, message}`, no-store); starts answer alike for known and unknown addresses, and a
 * send the rate limit refuses is 429 `{nextAllowedSendAt, error: 'resend_too_soon', message}` with
 * Retry-After.
 */
export function passwordlessDirectRoutes(deps: PasswordlessDirectRoutesDeps): FastifyPluginAsync {
  const { passwordless } = deps;
  return async (app) => {
    app.setErrorHandler(directErrorHandler);
    // Challenge tokens and session tokens travel in these bodies: no cache may keep them.
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.post('/email-otp/start', async (request) =>
      passwordless.requestEmailOtp(
        parseBody(svcEmailOtpStartRequestSchema, request.body),
        directRouteContext(request),
      ),
    );

    app.post('/email-otp/verify', async (request) =>
      passwordless.verifyEmailOtp(
        parseBody(svcEmailOtpVerifyRequestSchema, request.body),
        directRouteContext(request),
      ),
    );

    app.post('/magic-link/start', async (request) =>
      passwordless.requestMagicLink(
        parseBody(svcMagicLinkStartRequestSchema, request.body),
        directRouteContext(request),
      ),
    );

    app.post('/magic-link/complete', async (request) =>
      passwordless.completeMagicLink(
        parseBody(svcMagicLinkCompleteRequestSchema, request.body),
        directRouteContext(request),
      ),
    );
  };
}

import {
  svcChallengeTotpEnrollmentStartRequestSchema,
  svcMfaChallengeVerifyRequestSchema,
  svcTotpEnrollmentVerifyRequestSchema,
  opaqueTokenSchema,
} from '@svc/contract';
import type { FastifyPluginAsync } from 'fastify';
import { directErrorHandler, directRouteContext } from './routes.js';
import { parseBody } from '../http/body.js';
import type { MfaOperations } from '../signin/methods/mfa/mfa-operations.js';

export interface MfaDirectRoutesDeps {
  readonly mfa: Pick<
    MfaOperations,
    'verifyMfaChallenge' | 'startTotpEnrollmentForChallenge' | 'verifyTotpEnrollment'
  >;
}

/** Over HTTP an enrollment is always challenge-bound: the MFA token is required. */
const challengeEnrollmentVerifySchema = svcTotpEnrollmentVerifyRequestSchema.extend({
  mfaToken: opaqueTokenSchema,
});

/**
 * docs/reference/sign-in.md "Direct JSON helpers" for MFA, mounted at `{auth_base}`: POST /mfa/challenge/verify → the
 * verify result with tokens; POST /mfa/challenge/totp/enroll/start → the enrollment start result
 * (secret, provisioning URI, QR code); POST /mfa/challenge/totp/enroll/verify → authenticator id,
 * recovery codes (once) and tokens. Errors as the other direct helpers; nothing is cached.
 */
export function mfaDirectRoutes(deps: MfaDirectRoutesDeps): FastifyPluginAsync {
  const { mfa } = deps;
  return async (app) => {
    app.setErrorHandler(directErrorHandler);
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.post('/mfa/challenge/verify', async (request) =>
      mfa.verifyMfaChallenge(
        parseBody(svcMfaChallengeVerifyRequestSchema, request.body),
        directRouteContext(request),
      ),
    );

    app.post('/mfa/challenge/totp/enroll/start', async (request) =>
      mfa.startTotpEnrollmentForChallenge(
        parseBody(svcChallengeTotpEnrollmentStartRequestSchema, request.body),
        directRouteContext(request),
      ),
    );

    app.post('/mfa/challenge/totp/enroll/verify', async (request) =>
      mfa.verifyTotpEnrollment(
        parseBody(challengeEnrollmentVerifySchema, request.body),
        directRouteContext(request),
      ),
    );
  };
}

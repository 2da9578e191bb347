import { opaqueTokenSchema } from '@svc/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { AccountOperations } from '../../account/account-operations.js';
import { SvcError, SvcTooManyAttemptsError } from '../../kernel/errors.js';
import { issueAntiforgeryToken } from '../antiforgery-hook.js';
import { accountCallOf, singleValue } from '../login/request-values.js';
import {
  EMAIL_VERIFICATION_FIELDS,
  renderEmailVerificationPage,
  renderEmailVerificationResult,
} from '../pages/email-verification-page.js';
import { sendPage } from '../../http/pages/reply.js';
import type { HostedSignInDeps } from '../sign-in-deps.js';

/** What the hosted email verification page needs. */
export interface HostedEmailVerificationDeps extends Pick<HostedSignInDeps, 'antiforgery' | 'site'> {
  readonly account: Pick<AccountOperations, 'verifyEmail'>;
}

/** The token of the link or the form: one token as Svc issues them (printable, at most 512), else none. */
function tokenOf(source: unknown): string | undefined {
  const token = opaqueTokenSchema.safeParse(singleValue(source, EMAIL_VERIFICATION_FIELDS.token));
  return token.success ? token.data : undefined;
}

/**
 * The page an emailed verification link opens (docs/reference/sign-in.md "Direct JSON helpers" keeps POST /email/verify
 * for JSON callers on the same path):
 *
 * - GET /email/verify?token= → the confirmation page with its antiforgery field and cookie (never uses
 *   the token); a missing or malformed token → the "Link not valid" page (400);
 * - POST /email/verify/confirm {_csrf, token} → "Email verified" (200), or "Link not valid" (400) for an
 *   unknown, used or expired token (429 once too many such links came from the address). Registered
 *   inside `hostedRoutes`, so a post without a valid antiforgery field, cookie and origin is refused
 *   (400) before the token is looked at.
 */
export function emailVerificationRoutes(deps: HostedEmailVerificationDeps): FastifyPluginAsync {
  const { account, site } = deps;
  const authBase = site.authBase;
  return async (app) => {
    app.get('/email/verify', async (request, reply) => {
      const token = tokenOf(request.query);
      if (token === undefined) return sendPage(reply, renderEmailVerificationResult(authBase, false), 400);
      const antiforgeryToken = issueAntiforgeryToken(deps.antiforgery, site, request, reply);
      return sendPage(reply, renderEmailVerificationPage({ authBase, antiforgeryToken, token }));
    });

    app.post('/email/verify/confirm', async (request, reply) => {
      const token = tokenOf(request.body);
      let verified = false;
      if (token !== undefined) {
        try {
          await account.verifyEmail({ token }, accountCallOf(request));
          verified = true;
        } catch (error) {
          // Only a link that is not valid is that page; too many of them from this address is the 429 page.
          if (!(error instanceof SvcError) || error.status >= 500) throw error;
          if (error instanceof SvcTooManyAttemptsError) throw error;
        }
      }
      return sendPage(reply, renderEmailVerificationResult(authBase, verified), verified ? 200 : 400);
    });
  };
}

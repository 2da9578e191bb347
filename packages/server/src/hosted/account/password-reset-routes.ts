import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AccountOperations } from '../../account/account-operations.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../account/password-reset.js';
import { SvcPublicAuthError, SvcValidationError } from '../../kernel/errors.js';
import type { AuthRequestRecord } from '../../signin/flow/repository.js';
import { SvcSendRefusedError } from '../../ratelimit/refused-send.js';
import { issueAntiforgeryToken } from '../antiforgery-hook.js';
import { currentStepHref, HOSTED_FIELDS, HOSTED_MESSAGES } from '../form.js';
import { emailStepError, STEP_ERROR_MESSAGES } from '../../signin/flow/step-error-messages.js';
import { accountCallOf, browserContext, singleValue } from '../login/request-values.js';
import { renderForgotPasswordPage, renderForgotPasswordSentPage } from '../pages/password-forgot-page.js';
import {
  PASSWORD_RESET_FIELDS,
  PASSWORD_RESET_MESSAGES,
  renderPasswordChangedPage,
  renderResetLinkInvalidPage,
  renderResetPasswordPage,
} from '../pages/password-reset-page.js';
import { redirectAfterPost, sendPage } from '../../http/pages/reply.js';
import type { HostedSignInDeps } from '../sign-in-deps.js';
import { loadReturnRequest, withReturnRequest } from './return-request.js';

/** What the hosted password reset pages need. */
export interface HostedPasswordResetDeps extends Pick<HostedSignInDeps, 'flow' | 'antiforgery' | 'site'> {
  readonly account: Pick<
    AccountOperations,
    'requestPasswordResetEmail' | 'isPasswordResetTokenLive' | 'resetPassword'
  >;
}

/**
 * The hosted password reset pages (docs/reference/sign-in.md "Hosted pages": GET/POST /password/forgot,
 * /password/forgot/submit, /password/reset, /password/reset/submit). POST /password/forgot and POST
 * /password/reset are the direct JSON helpers on the same paths, so the forms post to the `/submit`
 * paths, and a GET of a `/submit` path is the page that follows its form (post/redirect/get):
 *
 * - GET /password/forgot[?request_id=&email=] → the form; POST /password/forgot/submit → 303 to GET
 *   /password/forgot/submit, "Check your email", the same bytes for every address; a send the rate
 *   limit refused (alike for every address) is the form again, 429, saying when to ask again;
 * - GET /password/reset?token= → the new-password form while the link is live (never uses the token),
 *   else "This reset link is no longer valid"; POST /password/reset/submit → 303 to GET
 *   /password/reset/submit, "Password changed", or the form again (400) with an inline error.
 *
 * `request_id` (a live authorization request of this browser) travels through the forms and the emailed
 * link, so that the pages lead back to that sign-in and the request is audited with its client.
 */
export function passwordResetRoutes(deps: HostedPasswordResetDeps): FastifyPluginAsync {
  const { account, site } = deps;
  const authBase = site.authBase;
  const returnRequest = (request: FastifyRequest, source: unknown) =>
    loadReturnRequest(deps.flow.steps, singleValue(source, HOSTED_FIELDS.requestId), browserContext(request));
  const backHref = (back: AuthRequestRecord | null) =>
    back === null ? {} : { backHref: currentStepHref(authBase, back.id) };

  function sendForgotForm(
    request: FastifyRequest,
    reply: FastifyReply,
    back: AuthRequestRecord | null,
    form: { email?: string; error?: string },
    refused?: SvcSendRefusedError,
  ) {
    const antiforgeryToken = issueAntiforgeryToken(deps.antiforgery, site, request, reply);
    const page = renderForgotPasswordPage({
      authBase,
      antiforgeryToken,
      requestId: back?.id ?? null,
      ...backHref(back),
      ...form,
    });
    if (refused !== undefined) reply.header('retry-after', String(refused.retryAfterSeconds));
    return sendPage(reply, page, refused !== undefined ? 429 : form.error === undefined ? 200 : 400);
  }

  function sendResetForm(
    request: FastifyRequest,
    reply: FastifyReply,
    back: AuthRequestRecord | null,
    token: string,
    error?: string,
  ) {
    const antiforgeryToken = issueAntiforgeryToken(deps.antiforgery, site, request, reply);
    const page = renderResetPasswordPage({
      authBase,
      antiforgeryToken,
      requestId: back?.id ?? null,
      token,
      ...(error === undefined ? {} : { error }),
    });
    return sendPage(reply, page, error === undefined ? 200 : 400);
  }

  const sendInvalidLink = (reply: FastifyReply, back: AuthRequestRecord | null) =>
    sendPage(reply, renderResetLinkInvalidPage({ authBase, requestId: back?.id ?? null }), 400);

  return async (app) => {
    app.get('/password/forgot', async (request, reply) => {
      const back = await returnRequest(request, request.query);
      const email = singleValue(request.query, HOSTED_FIELDS.email) ?? back?.email ?? back?.loginHint;
      return sendForgotForm(request, reply, back, email == null ? {} : { email });
    });

    app.post('/password/forgot/submit', async (request, reply) => {
      const back = await returnRequest(request, request.body);
      const email = (singleValue(request.body, HOSTED_FIELDS.email) ?? '').trim();
      if (email === '') return sendForgotForm(request, reply, back, { error: HOSTED_MESSAGES.emailRequired });
      try {
        // The public operation: unknown and passwordless addresses answer the same as known ones.
        await account.requestPasswordResetEmail(
          { email, clientId: back?.clientId ?? null },
          accountCallOf(request),
          { returnRequestId: back?.id ?? null },
        );
      } catch (error) {
        // The shape of the address and the rate limit (alike for every address) come first: nothing leaks.
        if (error instanceof SvcSendRefusedError) {
          return sendForgotForm(request, reply, back, { email, error: error.message }, error);
        }
        if (!(error instanceof SvcValidationError)) throw error;
        const invalid = STEP_ERROR_MESSAGES[emailStepError(email)];
        return sendForgotForm(request, reply, back, { email, error: invalid });
      }
      return redirectAfterPost(reply, withReturnRequest(authBase, '/password/forgot/submit', back));
    });

    app.get('/password/forgot/submit', async (request, reply) => {
      const back = await returnRequest(request, request.query);
      return sendPage(reply, renderForgotPasswordSentPage({ authBase, ...backHref(back) }));
    });

    app.get('/password/reset', async (request, reply) => {
      const back = await returnRequest(request, request.query);
      const token = singleValue(request.query, PASSWORD_RESET_FIELDS.token) ?? '';
      if (!(await account.isPasswordResetTokenLive(token, accountCallOf(request)))) {
        return sendInvalidLink(reply, back);
      }
      return sendResetForm(request, reply, back, token);
    });

    app.post('/password/reset/submit', async (request, reply) => {
      const back = await returnRequest(request, request.body);
      const token = singleValue(request.body, PASSWORD_RESET_FIELDS.token) ?? '';
      // A dead link says so first: no point choosing a password it cannot set.
      if (!(await account.isPasswordResetTokenLive(token, accountCallOf(request)))) {
        return sendInvalidLink(reply, back);
      }
      const password = singleValue(request.body, PASSWORD_RESET_FIELDS.newPassword) ?? '';
      const confirmation = singleValue(request.body, PASSWORD_RESET_FIELDS.confirmPassword) ?? '';
      const retry = (error: string) => sendResetForm(request, reply, back, token, error);
      if (password === '') return retry(PASSWORD_RESET_MESSAGES.newPasswordRequired);
      if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
        return retry(PASSWORD_RESET_MESSAGES.length);
      }
      if (password !== confirmation) return retry(PASSWORD_RESET_MESSAGES.mismatch);
      try {
        await account.resetPassword({ token, newPassword: password }, accountCallOf(request));
      } catch (error) {
        // Used or expired between the check and the reset (another tab): the link is no longer valid.
        if (error instanceof SvcPublicAuthError && error.code === 'invalid_token') {
          return sendInvalidLink(reply, back);
        }
        throw error;
      }
      return redirectAfterPost(reply, withReturnRequest(authBase, '/password/reset/submit', back));
    });

    app.get('/password/reset/submit', async (request, reply) => {
      const back = await returnRequest(request, request.query);
      const page = renderPasswordChangedPage({
        authBase,
        ...(back === null ? {} : { signInHref: currentStepHref(authBase, back.id) }),
      });
      return sendPage(reply, page);
    });
  };
}

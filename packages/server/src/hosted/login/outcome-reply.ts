import type { RefusedAttempt } from '../../kernel/errors.js';
import type { AuthorizeActionOutcome, AuthorizeStep } from '../../signin/flow/authorize-outcomes.js';
import { issueAntiforgeryToken } from '../antiforgery-hook.js';
import { setSessionCookie, type CookieReply, type CookieRequest } from '../../http/cookies.js';
import { currentStepHref } from '../form.js';
import { redirectAfterPost, sendFormPage, type HostedReply } from '../../http/pages/reply.js';
import type { HostedSignInDeps } from '../sign-in-deps.js';
import { renderStepPage } from './step-page.js';
import { EMAIL_OTP } from '../../signin/methods/email-otp/method.js';
import { PHONE_OTP } from '../../signin/methods/phone-otp/method.js';
import { SIGNUP } from '../../signin/methods/signup/method.js';

/** What the hosted sign-in replies need (Fastify's reply with @fastify/cookie fits). */
export type SignInReply = HostedReply & CookieReply;

/**
 * Renders a step's page with a fresh antiforgery token: status 200, or 400 when a post came back, or 429
 * with `Retry-After` when the post was refused for a while (`refused`: too many failed attempts, or a
 * send asked for too soon), whose message says when to try again.
 */
export function sendStep<R extends SignInReply>(
  reply: R,
  request: CookieRequest,
  deps: Pick<HostedSignInDeps, 'antiforgery' | 'site' | 'clock' | 'flow'>,
  step: AuthorizeStep,
  error?: Extract<AuthorizeActionOutcome, { kind: 'retry' }>['error'],
  refused?: RefusedAttempt,
): R {
  const antiforgeryToken = issueAntiforgeryToken(deps.antiforgery, deps.site, request, reply);
  const page = renderStepPage(step, {
    authBase: deps.site.authBase,
    antiforgeryToken,
    now: deps.clock.now(),
    ...(error === undefined ? {} : { error }),
    ...(refused === undefined ? {} : { errorMessage: refused.message }),
    // The pages link only to what is wired (phone pages only when SMS is configured).
    phoneSignIn: deps.flow.methods.has(PHONE_OTP),
    signup: deps.flow.methods.has(SIGNUP),
    emailSignIn: deps.flow.methods.has(EMAIL_OTP),
  });
  return sendFormPage(reply, page, error !== undefined, refused);
}

/**
 * Ends a hosted form post: a new issuer session goes into its cookie; then `303 See Other` to the client
 * (code or error) or to the request's current step (post/redirect/get, so a reload never re-posts), or
 * the same page again with an inline error and status 400 (the post changed nothing; 429 when a limit
 * on guessing refused it). Not 401 for a wrong password: HTTP ties 401 to a WWW-Authenticate challenge,
 * which a form sign-in does not have.
 */
export function sendActionOutcome<R extends SignInReply>(
  reply: R,
  request: CookieRequest,
  deps: HostedSignInDeps,
  outcome: AuthorizeActionOutcome,
): R {
  if (outcome.kind === 'retry') {
    return sendStep(reply, request, deps, outcome.step, outcome.error, outcome.refused);
  }
  if (outcome.session !== undefined) {
    setSessionCookie(reply, deps.site, outcome.session.token, outcome.session.expiresAt, deps.clock.now());
  }
  if (outcome.kind === 'show') return sendStep(reply, request, deps, outcome.step);
  return redirectAfterPost(
    reply,
    outcome.kind === 'redirect' ? outcome.location : currentStepHref(deps.site.authBase, outcome.requestId),
  );
}

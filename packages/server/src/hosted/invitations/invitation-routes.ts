import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type {
  InvitationAcceptance,
  InvitationAcceptOutcome,
  InvitationBrowser,
  InvitationFormError,
  InvitationPage,
} from '../../signin/methods/invitation/invitation-acceptance.js';
import type { RefusedAttempt } from '../../kernel/errors.js';
import { invitationOperation } from '../../signin/flow/errors.js';
import { issueAntiforgeryToken } from '../antiforgery-hook.js';
import { readSessionCookie, setSessionCookie } from '../../http/cookies.js';
import { HOSTED_FIELDS } from '../form.js';
import { singleValue } from '../login/request-values.js';
import { redirectAfterPost, sendFormPage, sendPage } from '../../http/pages/reply.js';
import type { HostedSignInDeps } from '../sign-in-deps.js';
import { INVITATION_FIELDS, renderInvitationPage, renderJoinedPage } from './invitation-pages.js';

/** What the hosted invitation pages need. */
export interface HostedInvitationDeps extends Pick<HostedSignInDeps, 'antiforgery' | 'site' | 'clock'> {
  readonly invitations: InvitationAcceptance;
}

function browserOf(request: FastifyRequest): InvitationBrowser {
  return { sessionToken: readSessionCookie(request), ipAddress: request.ip };
}

/**
 * The hosted invitation pages (docs/reference/sign-in.md "Hosted pages": GET /invitations/accept?token=<token>; the forms
 * and the page after them are ours, see docs/reference/sign-in.md "Invitations"):
 *
 * - GET /invitations/accept?token= → the invitation for this browser (InvitationPage), never using it;
 * - POST /invitations/accept (signed in as the invited address), /invitations/accept/password (the
 *   invited account's password) and /invitations/accept/signup (a new account) → 303 to GET
 *   /invitations/accepted?invitation_id=, "You have joined …", or the page again (400) with an error
 *   (429 with Retry-After when a limit on password guessing refused the password);
 * - an unusable token on any of them → "This invitation is no longer valid" (400).
 *
 * The token travels only in the emailed link and in the forms' hidden field.
 */
export function invitationRoutes(deps: HostedInvitationDeps): FastifyPluginAsync {
  const { invitations, site } = deps;
  const authBase = site.authBase;

  function sendInvitationPage(
    request: FastifyRequest,
    reply: FastifyReply,
    page: InvitationPage,
    token: string,
    error?: InvitationFormError,
    refused?: RefusedAttempt,
  ) {
    const antiforgeryToken = issueAntiforgeryToken(deps.antiforgery, site, request, reply);
    const html = renderInvitationPage(page, {
      authBase,
      antiforgeryToken,
      token,
      ...(error === undefined ? {} : { error }),
      ...(refused === undefined ? {} : { errorMessage: refused.message }),
    });
    return sendFormPage(reply, html, error !== undefined, refused);
  }

  function sendOutcome(
    request: FastifyRequest,
    reply: FastifyReply,
    outcome: InvitationAcceptOutcome,
    token: string,
  ) {
    if (outcome.kind === 'retry')
      return sendInvitationPage(request, reply, outcome.page, token, outcome.error, outcome.refused);
    if (outcome.session !== undefined) {
      setSessionCookie(reply, site, outcome.session.token, outcome.session.expiresAt, deps.clock.now());
    }
    const query = new URLSearchParams({ [INVITATION_FIELDS.invitationId]: outcome.invitationId });
    return redirectAfterPost(reply, `${authBase}/invitations/accepted?${query.toString()}`);
  }

  const tokenOf = (source: unknown) => singleValue(source, INVITATION_FIELDS.token) ?? '';

  return async (app) => {
    app.get('/invitations/accept', async (request, reply) => {
      const token = tokenOf(request.query);
      const page = await invitationOperation(() => invitations.open({ token }, browserOf(request)));
      return sendInvitationPage(request, reply, page, token);
    });

    app.post('/invitations/accept', async (request, reply) => {
      const token = tokenOf(request.body);
      const outcome = await invitationOperation(() =>
        invitations.acceptSignedIn({ token }, browserOf(request)),
      );
      return sendOutcome(request, reply, outcome, token);
    });

    app.post('/invitations/accept/password', async (request, reply) => {
      const token = tokenOf(request.body);
      const password = singleValue(request.body, HOSTED_FIELDS.password);
      const outcome = await invitationOperation(() =>
        invitations.acceptWithPassword({ token }, password, browserOf(request)),
      );
      return sendOutcome(request, reply, outcome, token);
    });

    app.post('/invitations/accept/signup', async (request, reply) => {
      const token = tokenOf(request.body);
      const displayName = singleValue(request.body, INVITATION_FIELDS.displayName);
      const outcome = await invitationOperation(() =>
        invitations.acceptWithSignup({ token }, displayName, browserOf(request)),
      );
      return sendOutcome(request, reply, outcome, token);
    });

    app.get('/invitations/accepted', async (request, reply) => {
      const joined = await invitationOperation(() =>
        invitations.joined(singleValue(request.query, INVITATION_FIELDS.invitationId), browserOf(request)),
      );
      return sendPage(reply, renderJoinedPage(joined, authBase));
    });
  };
}

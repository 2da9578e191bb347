import type {
  InvitationAcceptance,
  InvitationAcceptOutcome,
  InvitationFormError,
  InvitationPage,
  InvitationRef,
} from '../signin/methods/invitation/invitation-acceptance.js';
import { AMR_INVITATION } from '../signin/methods/invitation/invitation-signup.js';
import type { StepRequest } from '../signin/flow/authorize-outcomes.js';
import type { AuthRequestRecord } from '../signin/flow/repository.js';
import { STEP_ERROR_MESSAGES } from '../signin/flow/step-error-messages.js';
import { type HeadlessHandlers, need } from './headless-handler.js';
import type { HeadlessAnswer, HeadlessBrowser, HeadlessSignIn } from './headless-sign-in.js';
import { withRefusal } from './retry-answer.js';
import { invitationFields, invitationView } from './view-models.js';
import { EMAIL_OTP } from '../signin/methods/email-otp/method.js';
import { INVITATION } from '../signin/methods/invitation/invitation-steps.js';

/** The wording of each invitation form error. */
const INVITATION_MESSAGES: Readonly<Record<InvitationFormError, string>> = {
  password_required: STEP_ERROR_MESSAGES.password_required,
  invalid_credentials: STEP_ERROR_MESSAGES.invalid_credentials,
  too_many_attempts: STEP_ERROR_MESSAGES.too_many_attempts,
  display_name_required: STEP_ERROR_MESSAGES.display_name_required,
  account_exists: 'An account with this email exists now. Sign in with its password to accept.',
  not_signed_in: 'Sign in to the invited account to accept.',
};

/**
 * The invitation actions of a request (docs/reference/sign-in.md "Headless API"): resolve, accept by
 * signup, password, emailed code, or as the signed-in invitee.
 */
export const INVITATION_HANDLERS: HeadlessHandlers<
  | 'invitations/resolve'
  | 'invitations/signup'
  | 'invitations/login'
  | 'invitations/accept'
  | 'invitations/email-otp/start'
  | 'invitations/email-otp/verify'
> = {
  'invitations/resolve': async (h, b, browser) => {
    const invitations = need(h.deps.flow.methods.get(INVITATION)?.acceptance, 'Invitations');
    const { record, request } = await h.request(b.requestId, browser);
    const page = await invitations.open(refOf(record, b), browser);
    return h.viewAnswer(invitationView(page), request, invitationFields(page));
  },
  'invitations/signup': (h, b, browser) =>
    acceptInvitation(h, b, browser, (invitations, ref) =>
      invitations.acceptWithSignup(ref, b.displayName, browser, { startSession: false }),
    ),
  'invitations/login': (h, b, browser) =>
    acceptInvitation(h, b, browser, (invitations, ref) =>
      invitations.acceptWithPassword(ref, b.password, browser, { startSession: false }),
    ),
  'invitations/accept': async (h, b, browser) => {
    const invitations = need(h.deps.flow.methods.get(INVITATION)?.acceptance, 'Invitations');
    const { record, request } = await h.request(b.requestId, browser);
    const outcome = await invitations.acceptSignedIn(refOf(record, b), browser);
    if (outcome.kind === 'retry') return invitationRetry(h, request, outcome);
    // Accepting needs the browser's session but is not a sign-in of this request (which never reuses
    // a session silently): the request goes on with its own sign-in.
    const page = await invitations.joined(outcome.invitationId, browser);
    return h.viewAnswer('invite-accepted', request, { invitation: summaryOf(page) });
  },
  'invitations/email-otp/start': async (h, b, browser) => {
    const invitations = need(h.deps.flow.methods.get(INVITATION)?.acceptance, 'Invitations');
    const emailOtp = need(h.deps.flow.methods.get(EMAIL_OTP), 'Email sign-in');
    const { record } = await h.request(b.requestId, browser);
    const page = await invitations.open(refOf(record, b), browser);
    const answer = await h.run(
      b.requestId,
      browser,
      () => emailOtp.startCode(b.requestId, browser, page.summary.email),
      { next: 'invite-email-otp-verify' },
    );
    return withInvitation(answer, page);
  },
  'invitations/email-otp/verify': async (h, b, browser) => {
    const invitations = need(h.deps.flow.methods.get(INVITATION)?.acceptance, 'Invitations');
    const emailOtp = need(h.deps.flow.methods.get(EMAIL_OTP), 'Email sign-in');
    const { record, request } = await h.request(b.requestId, browser);
    const ref = refOf(record, b);
    const page = await invitations.open(ref, browser);
    let accepted = false;
    const answer = await h.run(
      b.requestId,
      browser,
      () =>
        emailOtp.verifyCode(b.requestId, browser, b.code, async (userId) => {
          await invitations.acceptForVerifiedUser(ref, userId, browser);
          accepted = true;
        }),
      { retry: 'invite-email-otp-verify' },
    );
    return accepted ? joinedAnswer(h, request, page, answer) : withInvitation(answer, page);
  },
};

/**
 * The invitation an action means: its token's, which on a request bound to an invitation must be that
 * invitation (else `invalid_invitation`).
 */
function refOf(
  record: AuthRequestRecord,
  body: { readonly invitationToken: string },
): { readonly token: string; readonly invitationId: string | null } {
  return { token: body.invitationToken, invitationId: record.invitationId };
}

function summaryOf(summary: InvitationPage['summary']): Record<string, unknown> {
  return {
    email: summary.email,
    organizationName: summary.organizationName,
    role: summary.role,
    clientName: summary.clientName,
  };
}

function invitationRetry(
  h: HeadlessSignIn,
  request: StepRequest,
  outcome: Extract<InvitationAcceptOutcome, { kind: 'retry' }>,
): HeadlessAnswer {
  const answer = h.viewAnswer(invitationView(outcome.page), request, invitationFields(outcome.page), {
    code: outcome.error,
    message: INVITATION_MESSAGES[outcome.error],
  });
  return withRefusal(answer, outcome.refused);
}

/**
 * POST /invitations/signup and /invitations/login: accept first (so that the organization choice and
 * policies that follow include the invited organization), then sign the request in as the account.
 */
async function acceptInvitation(
  h: HeadlessSignIn,
  b: { readonly requestId: string; readonly invitationToken: string },
  browser: HeadlessBrowser,
  accept: (invitations: InvitationAcceptance, ref: InvitationRef) => Promise<InvitationAcceptOutcome>,
): Promise<HeadlessAnswer> {
  const invitations = need(h.deps.flow.methods.get(INVITATION)?.acceptance, 'Invitations');
  const { record, request } = await h.request(b.requestId, browser);
  const ref = refOf(record, b);
  const page = await invitations.open(ref, browser);
  const outcome = await accept(invitations, ref);
  if (outcome.kind === 'retry') return invitationRetry(h, request, outcome);
  // The emailed invitation proved the address of a new account; an existing one signed in with its password.
  const amr = page.kind === 'signup' ? AMR_INVITATION : 'pwd';
  const answer = await h.run(b.requestId, browser, (record) =>
    h.deps.flow.steps.completeAuthentication(record, browser, {
      userId: outcome.userId,
      amr: [amr],
      method: page.kind === 'signup' ? 'invitation_signup' : 'invitation_password',
    }),
  );
  return joinedAnswer(h, request, page, answer);
}

/**
 * After an invitation was accepted on a request: `invite-accepted` (with the organization) while the
 * request still has steps (GET /requests/{id} shows the next), or the redirect with that view model.
 */
function joinedAnswer(
  h: HeadlessSignIn,
  request: StepRequest,
  page: InvitationPage,
  answer: HeadlessAnswer,
): HeadlessAnswer {
  const accepted = h.viewAnswer('invite-accepted', request, { invitation: summaryOf(page.summary) });
  if (answer.body.type === 'redirect') {
    return { ...answer, body: { ...answer.body, viewModel: accepted.body.viewModel } };
  }
  return { ...accepted, ...(answer.session === undefined ? {} : { session: answer.session }) };
}

/** Adds the invitation to the view model of an answer (the invitation's code step). */
function withInvitation(answer: HeadlessAnswer, page: InvitationPage): HeadlessAnswer {
  const model = answer.body.viewModel;
  if (model === null) return answer;
  return {
    ...answer,
    body: { ...answer.body, viewModel: { ...model, invitation: summaryOf(page.summary) } },
  };
}

import type { SignInProvider } from '../../signin/flow/authorize-outcomes.js';
import { providerButtons } from '../pages/provider-buttons.js';
import type {
  InvitationFormError,
  InvitationPage,
  InvitationSummary,
  JoinedInvitation,
  SignedOutInvitationPage,
} from '../../signin/methods/invitation/invitation-acceptance.js';
import { STEP_ERROR_MESSAGES } from '../../signin/flow/step-error-messages.js';
import {
  formError,
  HOSTED_FIELDS,
  HOSTED_MESSAGES,
  hiddenFormFields,
  invalidAttributes,
  requestPageHref,
  type HostedFormContext,
} from '../form.js';
import { html, type SafeHtml } from '../../http/pages/html.js';
import { renderLayout } from '../../http/pages/layout.js';
import { altLink, currentPasswordField, knownEmailField } from '../pages/fields.js';

/** Field names of the invitation forms (snake_case like every hosted form). */
export const INVITATION_FIELDS = Object.freeze({
  /** The invitation token from the emailed link: a secret, so only in that link and hidden fields. */
  token: 'token',
  displayName: 'display_name',
  /** The invitation id of the page after joining (not a credential: the page needs the session too). */
  invitationId: 'invitation_id',
});

/** The words of each inline error of the invitation forms. */
export const INVITATION_MESSAGES: Readonly<Record<InvitationFormError, string>> = Object.freeze({
  password_required: HOSTED_MESSAGES.passwordRequired,
  invalid_credentials: 'The password is incorrect.',
  too_many_attempts: STEP_ERROR_MESSAGES.too_many_attempts,
  display_name_required: 'Enter your name (at most 200 characters).',
  account_exists: 'An account with this email address already exists. Sign in with its password.',
  not_signed_in: 'You are not signed in with the invited email address. Sign in to accept.',
});

export interface InvitationPageContext {
  readonly authBase: string;
  /** From `issueAntiforgeryToken()` on the response that renders the page. */
  readonly antiforgeryToken: string;
  /** The invitation token, carried in the forms' hidden field. */
  readonly token: string;
  readonly error?: InvitationFormError;
  /** Words that replace the error's own, when they depend on the moment (when to try again). */
  readonly errorMessage?: string;
}

/** The invitation step of an authorization request bound to the invitation (/authorize `invitation_token`). */
export interface InvitationStepContext extends HostedFormContext {
  /** An inline error, already worded. */
  readonly error?: string;
  /** Email codes are wired: an account without a password gets one at the invited address. */
  readonly emailSignIn: boolean;
  /** The enabled providers: the invited address may also sign in, or sign up, through one. */
  readonly providers?: readonly SignInProvider[];
}

/** Where the forms of an invitation page post and what they carry (the token, or the request id). */
interface InvitationForms {
  readonly authBase: string;
  /** The hidden fields of every form. */
  readonly hidden: SafeHtml;
  readonly passwordAction: string;
  readonly signupAction: string;
  readonly forgotPasswordHref: string;
  /** `sign_in_first`: the form that emails a code to the invited address, or null (sign in, reopen the link). */
  readonly emailCodeAction: string | null;
  readonly error: string | undefined;
  /** The "Continue with …" buttons of the enabled providers (a request's step only: they continue it). */
  readonly providers: SafeHtml;
}

function hiddenInput(name: string, value: string): SafeHtml {
  return html`<input type="hidden" name="${name}" value="${value}" />`;
}

/** "Acme as editor (for Example App)": what the invitation is about. */
function invitedTo(summary: InvitationSummary): SafeHtml {
  return html`<p class="lead">
    You are invited to join <strong>${summary.organizationName}</strong> as <strong>${summary.role}</strong>${
      summary.clientName !== null && html` on <strong>${summary.clientName}</strong>`
    }.
  </p>`;
}

function otherAccount(signedInAs: string | null, email: string): SafeHtml {
  return html`${
    signedInAs !== null &&
    html`<p class="muted">
      You are signed in as ${signedInAs}. This invitation is for ${email}; accepting it signs you in with that
      address instead.
    </p>`
  }`;
}

/**
 * GET {authBase}/invitations/accept?token=…: the invitation, and the form that accepts it for this
 * browser (see InvitationPage). Opening the page never uses the invitation.
 */
export function renderInvitationPage(page: InvitationPage, context: InvitationPageContext): string {
  const { authBase } = context;
  const error =
    context.error === undefined ? undefined : (context.errorMessage ?? INVITATION_MESSAGES[context.error]);
  const hidden = html`${hiddenInput(HOSTED_FIELDS.antiforgery, context.antiforgeryToken)}
  ${hiddenInput(INVITATION_FIELDS.token, context.token)}`;
  if (page.kind !== 'confirm') {
    return renderAccountPage(page, {
      authBase,
      hidden,
      passwordAction: `${authBase}/invitations/accept/password`,
      signupAction: `${authBase}/invitations/accept/signup`,
      forgotPasswordHref: `${authBase}/password/forgot?${new URLSearchParams({ email: page.summary.email }).toString()}`,
      emailCodeAction: null,
      error,
      providers: html``,
    });
  }
  const { summary } = page;
  return renderLayout({
    authBase,
    title: 'Accept invitation',
    heading: `Join ${summary.organizationName} as ${summary.role}`,
    body: html`${invitedTo(summary)}
      <p>You are signed in as <strong>${summary.email}</strong>.</p>
      <form method="post" action="${authBase}/invitations/accept">
        ${hidden} ${formError(error)}
        <button class="button button-primary" type="submit">Accept invitation</button>
      </form>`,
  });
}

/**
 * The sign-in step of an authorization request bound to an invitation: the invited address only. Its
 * password posts to /login/password, a new account to /login/invitation/signup, and an account without a
 * password gets a code at the invited address (/login/email-otp/start); the request then completes.
 */
export function renderInvitationStep(page: SignedOutInvitationPage, context: InvitationStepContext): string {
  const { authBase, requestId } = context;
  return renderAccountPage(page, {
    authBase,
    hidden: hiddenFormFields(context),
    passwordAction: `${authBase}/login/password`,
    signupAction: `${authBase}/login/invitation/signup`,
    forgotPasswordHref: requestPageHref(authBase, '/password/forgot', requestId),
    emailCodeAction: context.emailSignIn ? `${authBase}/login/email-otp/start` : null,
    error: context.error,
    providers: providerButtons(authBase, requestId, context.providers ?? []),
  });
}

/** The page of the invited address's account: its password, its emailed code, or a new account. */
function renderAccountPage(page: SignedOutInvitationPage, forms: InvitationForms): string {
  const { authBase, error } = forms;
  const { summary } = page;
  switch (page.kind) {
    case 'password':
      return renderLayout({
        authBase,
        title: 'Accept invitation',
        heading: `Join ${summary.organizationName}`,
        body: html`${invitedTo(summary)} ${otherAccount(page.signedInAs, summary.email)}
          <p>Sign in to your account to accept.</p>
          <form method="post" action="${forms.passwordAction}">
            ${forms.hidden} ${formError(error)} ${knownEmailField(summary.email)}
            ${currentPasswordField(error)}
            <button class="button button-primary" type="submit">Sign in and accept</button>
          </form>
          ${altLink(forms.forgotPasswordHref, 'Forgot password?')} ${forms.providers}`,
      });
    case 'sign_in_first':
      return renderLayout({
        authBase,
        title: 'Accept invitation',
        heading: `Join ${summary.organizationName}`,
        body: html`${invitedTo(summary)} ${otherAccount(page.signedInAs, summary.email)}
        ${
          forms.emailCodeAction === null
            ? html`<p>
                  Your account ${summary.email} signs in with an emailed code or link. Sign in to it in this
                  browser, then open the invitation link again to accept.
                </p>
                ${
                  page.continueUri !== null &&
                  html`<a class="button button-primary" href="${page.continueUri}"
                    >Sign in to ${summary.clientName ?? 'the application'}</a
                  >`
                }`
            : html`<p>Your account signs in with an emailed code. We send it to ${summary.email}.</p>
                <form method="post" action="${forms.emailCodeAction}">
                  ${forms.hidden} ${formError(error)}
                  <input type="hidden" name="${HOSTED_FIELDS.email}" value="${summary.email}" />
                  <button class="button button-primary" type="submit">Email me a code</button>
                </form>`
        }
        ${forms.providers}`,
      });
    case 'signup':
      return renderLayout({
        authBase,
        title: 'Accept invitation',
        heading: 'Create your account',
        body: html`${invitedTo(summary)} ${otherAccount(page.signedInAs, summary.email)}
          <form method="post" action="${forms.signupAction}">
            ${forms.hidden} ${formError(error)} ${knownEmailField(summary.email)}
            <div class="field">
              <label for="display-name">Your name</label>
              <input
                id="display-name"
                name="${INVITATION_FIELDS.displayName}"
                type="text"
                autocomplete="name"
                maxlength="200"
                required
                autofocus${invalidAttributes(error)}
              />
            </div>
            <button class="button button-primary" type="submit">Create account and join</button>
          </form>
          ${forms.providers}`,
      });
  }
}

/** After joining: the membership, and the way on to the invitation's application when it names one. */
export function renderJoinedPage(joined: JoinedInvitation, authBase: string): string {
  const next =
    joined.continueUri === null
      ? html`<p class="muted">You can close this page.</p>`
      : html`<a class="button button-primary" href="${joined.continueUri}"
          >Continue to ${joined.clientName ?? 'the application'}</a
        >`;
  return renderLayout({
    authBase,
    title: 'Invitation accepted',
    heading: `You have joined ${joined.organizationName}`,
    body: html`<p>
        You are now a member of <strong>${joined.organizationName}</strong> as
        <strong>${joined.role}</strong>, signed in as ${joined.email}.
      </p>
      ${next}`,
  });
}

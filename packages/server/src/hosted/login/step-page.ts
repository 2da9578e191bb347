import type { AuthorizeStep, StepError } from '../../signin/flow/authorize-outcomes.js';
import { STEP_ERROR_MESSAGES } from '../../signin/flow/step-error-messages.js';
import { HOSTED_FIELDS } from '../form.js';
import { renderInvitationStep } from '../invitations/invitation-pages.js';
import { renderConsentPage } from '../pages/consent-page.js';
import { renderDeviceApprovalPage } from '../pages/device-approval-page.js';
import { renderEmailSignInPage } from '../pages/email-sign-in-page.js';
import { renderEnterCodePage } from '../pages/enter-code-page.js';
import { renderIdentifyPage } from '../pages/identify-page.js';
import { renderMagicLinkSentPage } from '../pages/magic-link-sent-page.js';
import { renderMfaEnrollPage, renderMfaVerifyPage, renderRecoveryCodesPage } from '../pages/mfa-pages.js';
import { renderPasswordPage } from '../pages/password-page.js';
import { renderPhoneSignInPage } from '../pages/phone-sign-in-page.js';
import { renderSelectOrganizationPage } from '../pages/select-organization-page.js';
import { invalidFieldOf } from '../pages/signup-fields.js';
import { renderSignupPage } from '../pages/signup-page.js';
import { renderPhoneSignupPage } from '../pages/signup-phone-page.js';

export interface StepPageContext {
  readonly authBase: string;
  /** From `issueAntiforgeryToken()` on the response that renders the page. */
  readonly antiforgeryToken: string;
  /** Epoch ms of the render: a page that waits for a code or link says when a new one may be sent. */
  readonly now: number;
  readonly error?: StepError;
  /** Words that replace the error's own, when they depend on the moment (when to try again). */
  readonly errorMessage?: string;
  /** SMS is configured: the pages offer phone sign-in and phone signup. */
  readonly phoneSignIn?: boolean;
  /** Hosted signup is wired: the identify step offers "Create an account". */
  readonly signup?: boolean;
  /** Email codes and links are wired: the identify and password steps offer them. */
  readonly emailSignIn?: boolean;
}

/** The HTML page of an authorization request's step, with an inline error when a post came back. */
export function renderStepPage(step: AuthorizeStep, context: StepPageContext): string {
  const form = {
    authBase: context.authBase,
    antiforgeryToken: context.antiforgeryToken,
    requestId: step.request.requestId,
    clientName: step.request.clientName,
    ...(context.error === undefined
      ? {}
      : { error: context.errorMessage ?? STEP_ERROR_MESSAGES[context.error] }),
  };
  // Only when nothing else is said: a refused send's error already says when.
  const resendIn =
    context.error === undefined && 'resendAvailableAt' in step && step.resendAvailableAt !== undefined
      ? { resendInMs: step.resendAvailableAt - context.now }
      : {};
  switch (step.kind) {
    case 'identify':
      return renderIdentifyPage({
        ...form,
        ...(step.email === null ? {} : { email: step.email }),
        phoneSignIn: context.phoneSignIn === true,
        signup: context.signup === true,
        emailSignIn: context.emailSignIn === true,
        providers: step.request.providers,
      });
    case 'password':
      return renderPasswordPage({ ...form, email: step.email, emailSignIn: context.emailSignIn === true });
    case 'invitation':
      return renderInvitationStep(step.invitation, {
        ...form,
        emailSignIn: context.emailSignIn === true,
        providers: step.request.providers,
      });
    case 'select_organization':
      return renderSelectOrganizationPage({
        ...form,
        organizations: step.organizations,
        // The engine's single-use token travels in the form only (never in a URL, never stored).
        hidden: { [HOSTED_FIELDS.pendingToken]: step.pendingAuthToken },
      });
    case 'phone_number':
      return renderPhoneSignInPage({
        ...form,
        ...(step.phoneNumber === null ? {} : { phoneNumber: step.phoneNumber }),
      });
    case 'signup':
      return renderSignupPage({
        ...form,
        ...step.values,
        ...optionalField(invalidFieldOf(context.error)),
        phoneSignup: context.phoneSignIn === true,
      });
    case 'phone_signup':
      return renderPhoneSignupPage({
        ...form,
        ...step.values,
        ...optionalField(invalidFieldOf(context.error)),
      });
    case 'mfa_verify':
      return renderMfaVerifyPage({ ...form, recoveryCodeOffered: step.recoveryCodeOffered });
    case 'mfa_enroll':
      return renderMfaEnrollPage({ ...form, secret: step.secret, qrCodeDataUrl: step.qrCodeDataUrl });
    case 'recovery_codes':
      return renderRecoveryCodesPage({
        authBase: context.authBase,
        requestId: step.request.requestId,
        codes: step.codes,
        continueTo: step.continueTo,
      });
    case 'email_sign_in':
      return renderEmailSignInPage({ ...form, ...(step.email === null ? {} : { email: step.email }) });
    case 'enter_code':
      return renderEnterCodePage({ ...form, challenge: step.challenge, target: step.target, ...resendIn });
    case 'magic_link_sent':
      return renderMagicLinkSentPage({ ...form, target: step.target, ...resendIn });
    case 'consent':
      return renderConsentPage({
        ...form,
        scopes: step.scopeDetails,
        ...(step.selfRegistered === null ? {} : { selfRegistered: step.selfRegistered }),
        ...(step.userEmail === null ? {} : { userEmail: step.userEmail }),
        ...(step.organizationName === null ? {} : { organizationName: step.organizationName }),
      });
    case 'device_approval':
      return renderDeviceApprovalPage({
        ...form,
        userCode: step.userCode,
        scopes: step.scopeDetails,
        ...(step.selfRegistered === null ? {} : { selfRegistered: step.selfRegistered }),
        ...(step.userEmail === null ? {} : { userEmail: step.userEmail }),
        ...(step.organizationName === null ? {} : { organizationName: step.organizationName }),
      });
  }
}

/** `{ invalidField }` when there is one (exact optional properties). */
function optionalField(invalidField: string | undefined): { invalidField?: string } {
  return invalidField === undefined ? {} : { invalidField };
}

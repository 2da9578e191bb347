import type { AuthorizeStep, StepError } from '../../oauth/authorize/authorize-outcomes.js';
import { HOSTED_FIELDS, HOSTED_MESSAGES } from '../form.js';
import { renderConsentPage } from '../pages/consent-page.js';
import { renderIdentifyPage } from '../pages/identify-page.js';
import { renderPasswordPage } from '../pages/password-page.js';
import { renderSelectOrganizationPage } from '../pages/select-organization-page.js';

/** The words of each inline error (one for a wrong password and an unknown email alike). */
export const STEP_ERROR_MESSAGES: Readonly<Record<StepError, string>> = Object.freeze({
  email_required: HOSTED_MESSAGES.emailRequired,
  email_invalid: HOSTED_MESSAGES.emailInvalid,
  password_required: HOSTED_MESSAGES.passwordRequired,
  invalid_credentials: HOSTED_MESSAGES.invalidCredentials,
  organization_required: HOSTED_MESSAGES.organizationRequired,
});

export interface StepPageContext {
  readonly authBase: string;
  /** From `issueAntiforgeryToken()` on the response that renders the page. */
  readonly antiforgeryToken: string;
  readonly error?: StepError;
}

/** The HTML page of an authorization request's step, with an inline error when a post came back. */
export function renderStepPage(step: AuthorizeStep, context: StepPageContext): string {
  const form = {
    authBase: context.authBase,
    antiforgeryToken: context.antiforgeryToken,
    requestId: step.request.requestId,
    clientName: step.request.clientName,
    ...(context.error === undefined ? {} : { error: STEP_ERROR_MESSAGES[context.error] }),
  };
  switch (step.kind) {
    case 'identify':
      return renderIdentifyPage({ ...form, ...(step.email === null ? {} : { email: step.email }) });
    case 'password':
      return renderPasswordPage({ ...form, email: step.email });
    case 'select_organization':
      return renderSelectOrganizationPage({
        ...form,
        organizations: step.organizations,
        // The engine's single-use token travels in the form only (never in a URL, never stored).
        hidden: { [HOSTED_FIELDS.pendingToken]: step.pendingAuthToken },
      });
    case 'consent':
      return renderConsentPage({
        ...form,
        scopes: step.scopes,
        ...(step.userEmail === null ? {} : { userEmail: step.userEmail }),
        ...(step.organizationName === null ? {} : { organizationName: step.organizationName }),
      });
  }
}

import type { HeadlessView, SvcHeadlessViewModel } from '@svc/contract';
import type { InvitationPage } from '../signin/methods/invitation/invitation-acceptance.js';
import { toIso } from '../kernel/clock.js';
import type { AuthorizeStep, StepRequest } from '../signin/flow/authorize-outcomes.js';

/** What every view model says beside its step: the credential types this deployment offers. */
export interface ViewContext {
  readonly enabledCredentialTypes: readonly string[];
}

/** The view of each challenge kind that waits for a typed code. */
const CODE_VIEWS = {
  email_otp: 'email-otp-verify',
  email_otp_signup: 'email-otp-signup-verify',
  phone_otp: 'phone-otp-verify',
  phone_otp_signup: 'phone-otp-signup-verify',
} as const satisfies Record<Extract<AuthorizeStep, { kind: 'enter_code' }>['challenge'], HeadlessView>;

/**
 * The credential types a deployment offers (the view model's `settings.enabledCredentialTypes`):
 * passwords always, email codes and links when email sign-in is wired, text codes when SMS is configured.
 */
export function enabledCredentialTypes(wired: {
  readonly emailSignIn: boolean;
  readonly phoneSignIn: boolean;
}): readonly string[] {
  return [
    'password',
    ...(wired.emailSignIn ? ['email_otp', 'magic_link'] : []),
    ...(wired.phoneSignIn ? ['phone_otp'] : []),
  ];
}

/** The view of an open invitation: sign in to the invited account, or create it. */
export function invitationView(page: InvitationPage): HeadlessView {
  return page.kind === 'signup' ? 'signup' : 'invite-login';
}

/**
 * What an invitation view shows: the invitation, how it can be accepted (`confirm`: signed in as the
 * invitee; `password`; `sign_in_first`: an account without a password, which accepts with an emailed
 * code; `signup`), and another account the browser is signed in to.
 */
export function invitationFields(page: InvitationPage): Record<string, unknown> {
  return {
    invitation: { ...page.summary, acceptWith: page.kind },
    signedInAs: 'signedInAs' in page ? page.signedInAs : null,
    ...(page.kind === 'signup'
      ? { values: { displayName: '', email: page.summary.email, organizationName: '' } }
      : {}),
  };
}

/**
 * A view model with the fields every view has (docs/reference/sign-in.md "Headless API") plus `fields`: for the views
 * that are not a step of the flow (forgot-password-sent, invite-accepted, device-approved, …).
 */
export function viewModel(
  view: HeadlessView,
  request: StepRequest,
  context: ViewContext,
  fields: Readonly<Record<string, unknown>> = {},
): SvcHeadlessViewModel {
  return {
    view,
    requestId: request.requestId,
    clientName: request.clientName,
    settings: { enabledCredentialTypes: [...context.enabledCredentialTypes] },
    providers: request.providers.map((provider) => ({ ...provider })),
    organizationSelection: null,
    ...fields,
  };
}

/**
 * The headless view model of a step of the authorization flow (docs/reference/sign-in.md "Headless API": view,
 * requestId, settings, providers, organizationSelection and further fields). The further fields carry
 * what the hosted page of the same step shows. `extra` adds fields the adapter owns (the consent token).
 */
export function viewModelOf(
  step: AuthorizeStep,
  context: ViewContext,
  extra: Readonly<Record<string, unknown>> = {},
): SvcHeadlessViewModel {
  const base = (view: HeadlessView, fields: Readonly<Record<string, unknown>> = {}): SvcHeadlessViewModel =>
    viewModel(view, step.request, context, { ...fields, ...extra });
  switch (step.kind) {
    case 'identify':
      return base('svc', { email: step.email });
    case 'password':
      return base('password', { email: step.email });
    case 'invitation':
      return base(invitationView(step.invitation), invitationFields(step.invitation));
    case 'select_organization':
      return {
        ...base('organization'),
        organizationSelection: {
          pendingToken: step.pendingAuthToken,
          organizations: step.organizations.map((o) => ({
            id: o.id,
            name: o.name,
            slug: o.slug,
            role: o.role,
          })),
        },
      };
    case 'enter_code':
      return base(CODE_VIEWS[step.challenge], { target: step.target, ...resendField(step) });
    case 'magic_link_sent':
      return base('magic-link-sent', { target: step.target, ...resendField(step) });
    case 'email_sign_in':
      return base('email-otp', { email: step.email });
    case 'phone_number':
      return base('phone-otp', { phoneNumber: step.phoneNumber });
    case 'signup':
      return base('signup', { values: step.values });
    case 'phone_signup':
      return base('phone-otp-signup', { values: step.values });
    case 'mfa_verify':
      return base('mfa', { recoveryCodeOffered: step.recoveryCodeOffered });
    case 'mfa_enroll':
      // docs/reference/sign-in.md "Multi-factor authentication".
      return base('mfa-enroll', {
        secret: step.secret,
        provisioningUri: step.provisioningUri,
        qrCodeDataUrl: step.qrCodeDataUrl,
        expiresAt: step.expiresAt,
      });
    case 'recovery_codes':
      return base('mfa-enroll', { recoveryCodes: [...step.codes] });
    case 'consent':
      return base('consent', {
        scopes: [...step.scopes],
        scopeDetails: step.scopeDetails.map((detail) => ({ ...detail })),
        userEmail: step.userEmail,
        organizationName: step.organizationName,
        selfRegistered: step.selfRegistered === null ? null : { ...step.selfRegistered },
      });
    case 'device_approval':
      return base('device-approve', {
        userCode: step.userCode,
        scopes: [...step.scopes],
        scopeDetails: step.scopeDetails.map((detail) => ({ ...detail })),
        userEmail: step.userEmail,
        organizationName: step.organizationName,
        selfRegistered: step.selfRegistered === null ? null : { ...step.selfRegistered },
      });
  }
}

/** `resendAvailableAt` of a view that waits for a code or link: ISO 8601, or null when not known. */
function resendField(step: { readonly resendAvailableAt?: number }): { resendAvailableAt: string | null } {
  return { resendAvailableAt: step.resendAvailableAt === undefined ? null : toIso(step.resendAvailableAt) };
}

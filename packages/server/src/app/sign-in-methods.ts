import type { InvitationAcceptanceWiring } from './wire-invitation-acceptance.js';
import type { SvcConfig } from '../config/resolve.js';
import type { DeviceAuthorizations } from '../oauth/device/device-authorizations.js';
import type { PasswordlessSignIn } from '../signin/methods/email-otp/passwordless-sign-in.js';
import type { PhoneOtpService } from '../signin/methods/phone-otp/phone-otp-service.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import type { SignInMethodRegistration } from '../signin/flow/method-context.js';
import { consentMethod } from '../signin/methods/consent/consent-actions.js';
import { deviceMethod } from '../signin/methods/device/device-steps.js';
import { emailOtpMethod } from '../signin/methods/email-otp/method.js';
import { invitationMethod } from '../signin/methods/invitation/invitation-steps.js';
import { magicLinkMethod } from '../signin/methods/magic-link/method.js';
import { mfaMethod } from '../signin/methods/mfa/mfa-steps.js';
import { organizationMethod } from '../signin/methods/organization/organization-method.js';
import { providerMethod } from '../signin/methods/oidc/method.js';
import type { ProviderSignIn } from '../signin/methods/oidc/provider-steps.js';
import { passwordMethod } from '../signin/methods/password/password-method.js';
import { samlMethod } from '../signin/methods/saml/method.js';
import type { SamlSignInDeps } from '../signin/methods/saml/saml-steps.js';
import { phoneOtpMethod } from '../signin/methods/phone-otp/method.js';
import { emailSignupMethod, signupMethod } from '../signin/methods/signup/method.js';
import type { MfaService } from '../signin/methods/mfa/mfa-service.js';
import type { PasswordAuthenticator } from '../signin/password-authenticator.js';
import type { SignupService } from '../signin/signup.js';

/** What the sign-in methods are built from: the engine's services and the optional capabilities. */
export interface SignInMethodsContext {
  readonly passwords: PasswordAuthenticator;
  readonly signup: SignupService;
  readonly mfa: MfaService;
  readonly config: Pick<SvcConfig, 'rateLimits'>;
  /** Email codes and sign-in links (absent: not offered). */
  readonly passwordless: PasswordlessSignIn | undefined;
  /** Phone codes: offered only when the SMS provider is configured, so no page offers what cannot work. */
  readonly phoneOtp: PhoneOtpService | undefined;
  /** Invitations (absent: every invitation token is unusable). */
  readonly invitations: InvitationAcceptanceWiring | undefined;
  /** Sign-in through provider connections (absent: no provider is offered). */
  readonly providers: ProviderSignIn | undefined;
  /** Sign-in through SAML SSO connections, found by home-realm discovery (absent: every email has a password). */
  readonly saml: SamlSignInDeps | undefined;
  /** The device authorization grant: the /device pages resolve and decide codes. */
  readonly devices: Pick<DeviceAuthorizations, 'resolve' | 'approve' | 'deny'>;
  /** Counts the user codes typed at /device (`config.rateLimits.deviceVerify`). */
  readonly rateLimiter: Pick<RateLimiter, 'consume'>;
}

/**
 * The sign-in methods the engine registers, one line each. Order matters only for pending requests: the
 * methods that wait for a code or link come first, then invitations, then the password of the email.
 */
export function signInMethods(ctx: SignInMethodsContext): SignInMethodRegistration[] {
  const { passwords, signup, mfa, passwordless } = ctx;
  const phone = ctx.phoneOtp?.challenges;
  return [
    ...(passwordless === undefined
      ? []
      : [
          emailOtpMethod(passwordless),
          magicLinkMethod(passwordless.magicLinks),
          emailSignupMethod({ challenges: passwordless.challenges, signup }),
        ]),
    ...(phone?.enabled === true ? [phoneOtpMethod({ challenges: phone, signup })] : []),
    ...(ctx.invitations === undefined
      ? []
      : [invitationMethod(ctx.invitations.binding, ctx.invitations.acceptance)]),
    ...(ctx.providers === undefined ? [] : [providerMethod(ctx.providers)]),
    ...(ctx.saml === undefined ? [] : [samlMethod(ctx.saml)]),
    signupMethod(signup),
    passwordMethod(passwords),
    organizationMethod(),
    mfaMethod(mfa),
    consentMethod(),
    deviceMethod({
      devices: ctx.devices,
      rateLimiter: ctx.rateLimiter,
      verifyLimit: ctx.config.rateLimits.deviceVerify,
    }),
  ];
}

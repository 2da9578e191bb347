import type { AccountOperations } from '../../account/account-operations.js';
import type { InvitationService } from '../../signin/methods/invitation/invitation-service.js';
import type { InvitationSignup } from '../../signin/methods/invitation/invitation-signup.js';
import { SvcInvalidOperationError } from '../../kernel/errors.js';
import type { DeviceOperations } from '../../oauth/device/device-operations.js';
import type { PasswordlessSignIn } from '../../signin/methods/email-otp/passwordless-sign-in.js';
import type { PhoneOtpService } from '../../signin/methods/phone-otp/phone-otp-service.js';
import type {
  SvcLoginResult,
  SvcPhoneOtpStartRequest,
  SvcPhoneOtpStartResult,
  SvcPhoneOtpVerifyRequest,
} from '@svc/contract';
import type { SvcAuthCallContext } from './svc-auth-call-context.js';

/**
 * The sign-in capabilities built over the engine (each wired in app/ beside it). createSvc() always
 * provides them; a facade built without one answers its operations with an invalid-operation error.
 */
export interface SvcAuthExtensions {
  readonly invitations?: InvitationService;
  readonly invitationSignup?: InvitationSignup;
  readonly passwordless?: PasswordlessSignIn;
  readonly phoneOtp?: PhoneOtpService;
  readonly account?: AccountOperations;
  /** The device authorization grant (RFC 8628). */
  readonly devices?: DeviceOperations;
}

/**
 * The operations of SvcAuthService that capabilities built on the sign-in engine provide (invitations,
 * email and phone codes, magic links, account emails, the device grant; docs/reference/sign-in.md
 * "Email codes", "Invitations", "Password reset and email verification", RFC 8628): each
 * delegates to its capability, and answers SvcInvalidOperationError when the host did not wire that
 * capability.
 */
export class SvcAuthCapabilities {
  readonly #extensions: SvcAuthExtensions;

  constructor(extensions: SvcAuthExtensions) {
    this.#extensions = extensions;
  }

  #extension<K extends keyof SvcAuthExtensions>(name: K): NonNullable<SvcAuthExtensions[K]> {
    const extension = this.#extensions[name];
    if (extension === undefined) {
      throw new SvcInvalidOperationError(
        `This operation is not available: ${name} is not wired into this service.`,
      );
    }
    return extension as NonNullable<SvcAuthExtensions[K]>;
  }

  /** CreateEmailInvitationAsync: a pending invitation whose token leaves only in the emailed InviteUrl. */
  createEmailInvitationAsync(
    ...args: Parameters<InvitationService['createEmailInvitation']>
  ): ReturnType<InvitationService['createEmailInvitation']> {
    return this.#extension('invitations').createEmailInvitation(...args);
  }

  /** AcceptEmailInvitationAsync: an existing user whose normalized email matches joins the organization. */
  acceptEmailInvitationAsync(
    ...args: Parameters<InvitationService['acceptEmailInvitation']>
  ): ReturnType<InvitationService['acceptEmailInvitation']> {
    return this.#extension('invitations').acceptEmailInvitation(...args);
  }

  /** ResendEmailInvitationAsync: a new token; the previous one stops working. */
  resendEmailInvitationAsync(
    ...args: Parameters<InvitationService['resendEmailInvitation']>
  ): ReturnType<InvitationService['resendEmailInvitation']> {
    return this.#extension('invitations').resendEmailInvitation(...args);
  }

  /** RevokeEmailInvitationAsync: no future acceptance. */
  revokeEmailInvitationAsync(
    ...args: Parameters<InvitationService['revokeEmailInvitation']>
  ): ReturnType<InvitationService['revokeEmailInvitation']> {
    return this.#extension('invitations').revokeEmailInvitation(...args);
  }

  /** AcceptEmailInvitationSignupAsync: creates the invited user and signs in. First-party clients only. */
  acceptEmailInvitationSignupAsync(
    ...args: Parameters<InvitationSignup['acceptEmailInvitationSignup']>
  ): ReturnType<InvitationSignup['acceptEmailInvitationSignup']> {
    return this.#extension('invitationSignup').acceptEmailInvitationSignup(...args);
  }

  /** RequestEmailOtpAsync: emails a 6-digit code (enumeration-safe answer). First-party clients only. */
  requestEmailOtpAsync(
    ...args: Parameters<PasswordlessSignIn['requestEmailOtp']>
  ): ReturnType<PasswordlessSignIn['requestEmailOtp']> {
    return this.#extension('passwordless').requestEmailOtp(...args);
  }

  /** VerifyEmailOtpAsync: checks the code and signs in (login-result state machine). */
  verifyEmailOtpAsync(
    ...args: Parameters<PasswordlessSignIn['verifyEmailOtp']>
  ): ReturnType<PasswordlessSignIn['verifyEmailOtp']> {
    return this.#extension('passwordless').verifyEmailOtp(...args);
  }

  /**
   * RequestEmailOtpSignupAsync: emails a code to an address without an account (enumeration-safe
   * answer: signupToken, challengeToken, maskedEmail, expiresAt, nextAllowedSendAt). First-party clients only.
   */
  requestEmailOtpSignupAsync(
    ...args: Parameters<PasswordlessSignIn['requestEmailOtpSignup']>
  ): ReturnType<PasswordlessSignIn['requestEmailOtpSignup']> {
    return this.#extension('passwordless').requestEmailOtpSignup(...args);
  }

  /** VerifyEmailOtpSignupAsync: checks the code, creates the passwordless account and signs in. */
  verifyEmailOtpSignupAsync(
    ...args: Parameters<PasswordlessSignIn['verifyEmailOtpSignup']>
  ): ReturnType<PasswordlessSignIn['verifyEmailOtpSignup']> {
    return this.#extension('passwordless').verifyEmailOtpSignup(...args);
  }

  /** RequestMagicLinkAsync: emails a single-use sign-in link bound to the client. */
  requestMagicLinkAsync(
    ...args: Parameters<PasswordlessSignIn['requestMagicLink']>
  ): ReturnType<PasswordlessSignIn['requestMagicLink']> {
    return this.#extension('passwordless').requestMagicLink(...args);
  }

  /** CompleteMagicLinkAsync: consumes the link and signs in (login-result state machine). */
  completeMagicLinkAsync(
    ...args: Parameters<PasswordlessSignIn['completeMagicLink']>
  ): ReturnType<PasswordlessSignIn['completeMagicLink']> {
    return this.#extension('passwordless').completeMagicLink(...args);
  }

  /** RequestPhoneOtpAsync: texts a code through the SMS verification provider (enumeration-safe answer). */
  requestPhoneOtpAsync(
    request: SvcPhoneOtpStartRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcPhoneOtpStartResult> {
    return this.#extension('phoneOtp').requestPhoneOtp(request, context);
  }

  /** VerifyPhoneOtpAsync: checks the code with the provider and signs in (login-result state machine). */
  verifyPhoneOtpAsync(
    request: SvcPhoneOtpVerifyRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcLoginResult> {
    return this.#extension('phoneOtp').verifyPhoneOtp(request, context);
  }

  /** RequestPhoneOtpSignupAsync: texts a code to a number without an account (enumeration-safe answer). */
  requestPhoneOtpSignupAsync(
    ...args: Parameters<PhoneOtpService['requestPhoneOtpSignup']>
  ): ReturnType<PhoneOtpService['requestPhoneOtpSignup']> {
    return this.#extension('phoneOtp').requestPhoneOtpSignup(...args);
  }

  /** VerifyPhoneOtpSignupAsync: checks the code, creates the passwordless account and signs in. */
  verifyPhoneOtpSignupAsync(
    ...args: Parameters<PhoneOtpService['verifyPhoneOtpSignup']>
  ): ReturnType<PhoneOtpService['verifyPhoneOtpSignup']> {
    return this.#extension('phoneOtp').verifyPhoneOtpSignup(...args);
  }

  /** RequestPasswordResetEmailAsync: the public, enumeration-safe reset request. */
  requestPasswordResetEmailAsync(
    ...args: Parameters<AccountOperations['requestPasswordResetEmail']>
  ): ReturnType<AccountOperations['requestPasswordResetEmail']> {
    return this.#extension('account').requestPasswordResetEmail(...args);
  }

  /** SendPasswordResetEmailAsync: the trusted form (optional ResetUrlTemplate, delivery details). */
  sendPasswordResetEmailAsync(
    ...args: Parameters<AccountOperations['sendPasswordResetEmail']>
  ): ReturnType<AccountOperations['sendPasswordResetEmail']> {
    return this.#extension('account').sendPasswordResetEmail(...args);
  }

  /** CreatePasswordResetTokenAsync: a one-time token for a host that delivers it itself. */
  createPasswordResetTokenAsync(
    ...args: Parameters<AccountOperations['createPasswordResetToken']>
  ): ReturnType<AccountOperations['createPasswordResetToken']> {
    return this.#extension('account').createPasswordResetToken(...args);
  }

  /** ResetPasswordAsync: consumes the token, sets the password and revokes the user's sessions. */
  resetPasswordAsync(
    ...args: Parameters<AccountOperations['resetPassword']>
  ): ReturnType<AccountOperations['resetPassword']> {
    return this.#extension('account').resetPassword(...args);
  }

  /** CreateEmailVerificationTokenAsync: emails a verification link (generic answer). */
  createEmailVerificationTokenAsync(
    ...args: Parameters<AccountOperations['createEmailVerificationToken']>
  ): ReturnType<AccountOperations['createEmailVerificationToken']> {
    return this.#extension('account').createEmailVerificationToken(...args);
  }

  /** VerifyEmailAsync: consumes the token and marks the email verified. */
  verifyEmailAsync(
    ...args: Parameters<AccountOperations['verifyEmail']>
  ): ReturnType<AccountOperations['verifyEmail']> {
    return this.#extension('account').verifyEmail(...args);
  }

  /**
   * StartDeviceAuthorizationAsync({clientId, scope, resource}, context): a device authorization request
   * for a client that allows the device grant (the response record in camelCase). Errors are the OAuth
   * errors of POST /device_authorization (invalid_client, unauthorized_client, invalid_target, slow_down).
   */
  startDeviceAuthorizationAsync(
    ...args: Parameters<DeviceOperations['startDeviceAuthorization']>
  ): ReturnType<DeviceOperations['startDeviceAuthorization']> {
    return this.#extension('devices').startDeviceAuthorization(...args);
  }

  /** ResolveDeviceAuthorizationAsync(userCode): {clientId, clientName, scopes, expiresAt, status} or null. */
  resolveDeviceAuthorizationAsync(
    ...args: Parameters<DeviceOperations['resolveDeviceAuthorization']>
  ): ReturnType<DeviceOperations['resolveDeviceAuthorization']> {
    return this.#extension('devices').resolveDeviceAuthorization(...args);
  }

  /** ApproveDeviceAuthorizationAsync({userCode, userId, organizationId, amr?, authTime?}): a status. */
  approveDeviceAuthorizationAsync(
    ...args: Parameters<DeviceOperations['approveDeviceAuthorization']>
  ): ReturnType<DeviceOperations['approveDeviceAuthorization']> {
    return this.#extension('devices').approveDeviceAuthorization(...args);
  }

  /** Denies the request behind a user code ({userCode, userId?}); polling then answers access_denied. */
  denyDeviceAuthorizationAsync(
    ...args: Parameters<DeviceOperations['denyDeviceAuthorization']>
  ): ReturnType<DeviceOperations['denyDeviceAuthorization']> {
    return this.#extension('devices').denyDeviceAuthorization(...args);
  }

  /** PollDeviceAuthorizationAsync({clientId, deviceCode, resource?}): `complete` with tokens once, else a status. */
  pollDeviceAuthorizationAsync(
    ...args: Parameters<DeviceOperations['pollDeviceAuthorization']>
  ): ReturnType<DeviceOperations['pollDeviceAuthorization']> {
    return this.#extension('devices').pollDeviceAuthorization(...args);
  }
}

import {
  svcApproveDeviceAuthorizationRequestSchema,
  svcCreateEmailInvitationRequestSchema,
  svcDenyDeviceAuthorizationRequestSchema,
  svcDeviceAuthorizationStartRequestSchema,
  svcEmailOtpSignupStartRequestSchema,
  svcEmailOtpSignupVerifyRequestSchema,
  svcEmailOtpStartRequestSchema,
  svcEmailOtpVerifyRequestSchema,
  svcMagicLinkCompleteRequestSchema,
  svcMagicLinkStartRequestSchema,
  svcPhoneOtpSignupStartRequestSchema,
  svcPhoneOtpSignupVerifyRequestSchema,
  svcPhoneOtpStartRequestSchema,
  svcPhoneOtpVerifyRequestSchema,
  svcPollDeviceAuthorizationRequestSchema,
  svcResendEmailInvitationRequestSchema,
  svcRevokeEmailInvitationRequestSchema,
  userCodeInputSchema,
  type SvcApproveDeviceAuthorizationRequest,
  type SvcCreateEmailInvitationRequest,
  type SvcDenyDeviceAuthorizationRequest,
  type SvcDeviceAuthorization,
  type SvcDeviceAuthorizationResponse,
  type SvcDeviceAuthorizationStartRequest,
  type SvcDeviceDecisionResult,
  type SvcDevicePollResult,
  type SvcEmailInvitation,
  type SvcEmailOtpSignupStartRequest,
  type SvcEmailOtpSignupStartResult,
  type SvcEmailOtpSignupVerifyRequest,
  type SvcEmailOtpStartRequest,
  type SvcEmailOtpStartResult,
  type SvcEmailOtpVerifyRequest,
  type SvcLoginResult,
  type SvcMagicLinkCompleteRequest,
  type SvcMagicLinkStartRequest,
  type SvcMagicLinkStartResult,
  type SvcPhoneOtpSignupStartRequest,
  type SvcPhoneOtpSignupStartResult,
  type SvcPhoneOtpSignupVerifyRequest,
  type SvcPhoneOtpStartRequest,
  type SvcPhoneOtpStartResult,
  type SvcPhoneOtpVerifyRequest,
  type SvcPollDeviceAuthorizationRequest,
  type SvcResendEmailInvitationRequest,
  type SvcRevokeEmailInvitationRequest,
} from '@svc/contract';
import type { AccountOperations } from '../../account/account-operations.js';
import type { AdminActor } from '../../audit/actor.js';
import type { InvitationService } from '../../signin/methods/invitation/invitation-service.js';
import type { InvitationSignup } from '../../signin/methods/invitation/invitation-signup.js';
import { SvcInvalidOperationError } from '../../kernel/errors.js';
import { validate } from '../../kernel/validation.js';
import type { DeviceCallContext, DeviceOperations } from '../../oauth/device/device-operations.js';
import type { PasswordlessSignIn } from '../../signin/methods/email-otp/passwordless-sign-in.js';
import type { PhoneOtpService } from '../../signin/methods/phone-otp/phone-otp-service.js';
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
 * "Email codes", "Invitations", "Password reset and email verification", RFC 8628): each validates its
 * request with the contract schema (400, as over HTTP), delegates to its capability, and answers
 * SvcInvalidOperationError when the host did not wire that capability.
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
  async createEmailInvitationAsync(
    request: SvcCreateEmailInvitationRequest,
    actor?: AdminActor,
  ): Promise<SvcEmailInvitation> {
    const input = validate(svcCreateEmailInvitationRequestSchema, request, 'invitation');
    return this.#extension('invitations').createEmailInvitation(input, actor);
  }

  /** AcceptEmailInvitationAsync: an existing user whose normalized email matches joins the organization. */
  acceptEmailInvitationAsync(
    ...args: Parameters<InvitationService['acceptEmailInvitation']>
  ): ReturnType<InvitationService['acceptEmailInvitation']> {
    return this.#extension('invitations').acceptEmailInvitation(...args);
  }

  /** ResendEmailInvitationAsync: a new token; the previous one stops working. */
  async resendEmailInvitationAsync(
    request: SvcResendEmailInvitationRequest,
    actor?: AdminActor,
  ): Promise<SvcEmailInvitation> {
    const input = validate(svcResendEmailInvitationRequestSchema, request, 'invitation resend request');
    return this.#extension('invitations').resendEmailInvitation(input, actor);
  }

  /** RevokeEmailInvitationAsync: no future acceptance. */
  async revokeEmailInvitationAsync(
    request: SvcRevokeEmailInvitationRequest,
    actor?: AdminActor,
  ): Promise<SvcEmailInvitation> {
    const input = validate(svcRevokeEmailInvitationRequestSchema, request, 'invitation revocation request');
    return this.#extension('invitations').revokeEmailInvitation(input, actor);
  }

  /** AcceptEmailInvitationSignupAsync: creates the invited user and signs in. First-party clients only. */
  acceptEmailInvitationSignupAsync(
    ...args: Parameters<InvitationSignup['acceptEmailInvitationSignup']>
  ): ReturnType<InvitationSignup['acceptEmailInvitationSignup']> {
    return this.#extension('invitationSignup').acceptEmailInvitationSignup(...args);
  }

  /** RequestEmailOtpAsync: emails a 6-digit code (enumeration-safe answer). First-party clients only. */
  async requestEmailOtpAsync(
    request: SvcEmailOtpStartRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcEmailOtpStartResult> {
    const input = validate(svcEmailOtpStartRequestSchema, request, 'email OTP start request');
    return this.#extension('passwordless').requestEmailOtp(input, context);
  }

  /** VerifyEmailOtpAsync: checks the code and signs in (login-result state machine). */
  async verifyEmailOtpAsync(
    request: SvcEmailOtpVerifyRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcLoginResult> {
    const input = validate(svcEmailOtpVerifyRequestSchema, request, 'email OTP verify request');
    return this.#extension('passwordless').verifyEmailOtp(input, context);
  }

  /**
   * RequestEmailOtpSignupAsync: emails a code to an address without an account (enumeration-safe
   * answer: signupToken, challengeToken, maskedEmail, expiresAt, nextAllowedSendAt). First-party clients only.
   */
  async requestEmailOtpSignupAsync(
    request: SvcEmailOtpSignupStartRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcEmailOtpSignupStartResult> {
    const input = validate(svcEmailOtpSignupStartRequestSchema, request, 'email OTP signup start request');
    return this.#extension('passwordless').requestEmailOtpSignup(input, context);
  }

  /** VerifyEmailOtpSignupAsync: checks the code, creates the passwordless account and signs in. */
  async verifyEmailOtpSignupAsync(
    request: SvcEmailOtpSignupVerifyRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcLoginResult> {
    const input = validate(svcEmailOtpSignupVerifyRequestSchema, request, 'email OTP signup verify request');
    return this.#extension('passwordless').verifyEmailOtpSignup(input, context);
  }

  /** RequestMagicLinkAsync: emails a single-use sign-in link bound to the client. */
  async requestMagicLinkAsync(
    request: SvcMagicLinkStartRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcMagicLinkStartResult> {
    const input = validate(svcMagicLinkStartRequestSchema, request, 'magic link start request');
    return this.#extension('passwordless').requestMagicLink(input, context);
  }

  /** CompleteMagicLinkAsync: consumes the link and signs in (login-result state machine). */
  async completeMagicLinkAsync(
    request: SvcMagicLinkCompleteRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcLoginResult> {
    const input = validate(svcMagicLinkCompleteRequestSchema, request, 'magic link complete request');
    return this.#extension('passwordless').completeMagicLink(input, context);
  }

  /** RequestPhoneOtpAsync: texts a code through the SMS verification provider (enumeration-safe answer). */
  async requestPhoneOtpAsync(
    request: SvcPhoneOtpStartRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcPhoneOtpStartResult> {
    const input = validate(svcPhoneOtpStartRequestSchema, request, 'phone OTP start request');
    return this.#extension('phoneOtp').requestPhoneOtp(input, context);
  }

  /** VerifyPhoneOtpAsync: checks the code with the provider and signs in (login-result state machine). */
  async verifyPhoneOtpAsync(
    request: SvcPhoneOtpVerifyRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcLoginResult> {
    const input = validate(svcPhoneOtpVerifyRequestSchema, request, 'phone OTP verify request');
    return this.#extension('phoneOtp').verifyPhoneOtp(input, context);
  }

  /** RequestPhoneOtpSignupAsync: texts a code to a number without an account (enumeration-safe answer). */
  async requestPhoneOtpSignupAsync(
    request: SvcPhoneOtpSignupStartRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcPhoneOtpSignupStartResult> {
    const input = validate(svcPhoneOtpSignupStartRequestSchema, request, 'phone OTP signup start request');
    return this.#extension('phoneOtp').requestPhoneOtpSignup(input, context);
  }

  /** VerifyPhoneOtpSignupAsync: checks the code, creates the passwordless account and signs in. */
  async verifyPhoneOtpSignupAsync(
    request: SvcPhoneOtpSignupVerifyRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcLoginResult> {
    const input = validate(svcPhoneOtpSignupVerifyRequestSchema, request, 'phone OTP signup verify request');
    return this.#extension('phoneOtp').verifyPhoneOtpSignup(input, context);
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
  async startDeviceAuthorizationAsync(
    request: SvcDeviceAuthorizationStartRequest,
    context?: DeviceCallContext,
  ): Promise<SvcDeviceAuthorizationResponse> {
    const input = validate(svcDeviceAuthorizationStartRequestSchema, request, 'device authorization request');
    return this.#extension('devices').startDeviceAuthorization(input, context);
  }

  /** ResolveDeviceAuthorizationAsync(userCode): {clientId, clientName, scopes, expiresAt, status} or null. */
  async resolveDeviceAuthorizationAsync(
    userCode: string,
    context?: DeviceCallContext,
  ): Promise<SvcDeviceAuthorization | null> {
    const code = validate(userCodeInputSchema, userCode, 'user code', 'userCode');
    return this.#extension('devices').resolveDeviceAuthorization(code, context);
  }

  /** ApproveDeviceAuthorizationAsync({userCode, userId, organizationId, amr?, authTime?}): a status. */
  async approveDeviceAuthorizationAsync(
    request: SvcApproveDeviceAuthorizationRequest,
    context?: DeviceCallContext,
  ): Promise<SvcDeviceDecisionResult> {
    const input = validate(svcApproveDeviceAuthorizationRequestSchema, request, 'device approval');
    return this.#extension('devices').approveDeviceAuthorization(input, context);
  }

  /** Denies the request behind a user code ({userCode, userId?}); polling then answers access_denied. */
  async denyDeviceAuthorizationAsync(
    request: SvcDenyDeviceAuthorizationRequest,
    context?: DeviceCallContext,
  ): Promise<SvcDeviceDecisionResult> {
    const input = validate(svcDenyDeviceAuthorizationRequestSchema, request, 'device denial');
    return this.#extension('devices').denyDeviceAuthorization(input, context);
  }

  /** PollDeviceAuthorizationAsync({clientId, deviceCode, resource?}): `complete` with tokens once, else a status. */
  async pollDeviceAuthorizationAsync(
    request: SvcPollDeviceAuthorizationRequest,
    context?: DeviceCallContext,
  ): Promise<SvcDevicePollResult> {
    const input = validate(svcPollDeviceAuthorizationRequestSchema, request, 'device poll');
    return this.#extension('devices').pollDeviceAuthorization(input, context);
  }
}

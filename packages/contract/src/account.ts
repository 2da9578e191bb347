/**
 * Request and result records of password reset and email verification (docs/reference/sign-in.md "Password reset" names), camelCase like
 * every in-process and direct record. The public answers are the same for every address (enumeration
 * safety); only the trusted in-process send reports its delivery.
 */

/** SvcForgotPasswordRequest. */
export interface SvcForgotPasswordRequest {
  readonly email: string;
  readonly clientId?: string | null;
}

/** SvcSendPasswordResetEmailRequest; the template is trusted server-side input (never from HTTP). */
export interface SvcSendPasswordResetEmailRequest {
  readonly email: string;
  readonly resetUrlTemplate?: string | null;
  readonly clientId?: string | null;
}

export interface SvcResetPasswordRequest {
  readonly token: string;
  readonly newPassword: string;
}

export interface SvcCreateVerificationTokenRequest {
  readonly email: string;
}

export interface SvcVerifyEmailRequest {
  readonly token: string;
}

/** The public reset-request result (POST /password/forgot and /password/reset-email). */
export interface SvcPasswordResetEmailResult {
  readonly maskedEmail: string;
  readonly expiresAt: string;
  readonly nextAllowedSendAt: string;
  readonly message: string;
}

/** The trusted in-process result: the public fields plus the delivery, null when nothing was sent. */
export interface SvcTrustedPasswordResetEmailResult extends SvcPasswordResetEmailResult {
  readonly deliveryId: string | null;
  readonly deliveryStatus: string | null;
  readonly providerMessageId: string | null;
  readonly failureDetail: string | null;
}

/** POST /email/verification-email: the same for known, unknown and already verified addresses. */
export interface SvcEmailVerificationResult {
  readonly maskedEmail: string;
  readonly expiresAt: string;
  readonly nextAllowedSendAt: string;
  readonly message: string;
}

import type {
  SvcPasswordResetDelivery,
  SvcCreateVerificationTokenRequest,
  SvcEmailVerificationResult,
  SvcForgotPasswordRequest,
  SvcPasswordResetEmailResult,
  SvcResetPasswordRequest,
  SvcSendPasswordResetEmailRequest,
  SvcTrustedPasswordResetEmailResult,
  SvcVerifyEmailRequest,
} from '@svc/contract';
import type { AdminActor } from '../audit/actor.js';
import type { AccountCallContext } from './account-email.js';
import type { EmailVerification } from './email-verification.js';
import type { PasswordReset } from './password-reset.js';

/**
 * The in-process password reset and email verification operations, under their docs/reference/sign-in.md "Password reset" and "Email verification" names
 * (SvcAuthService delegates to them).
 */
export class AccountOperations {
  constructor(
    private readonly reset: PasswordReset,
    private readonly verification: EmailVerification,
  ) {}

  /**
   * The public reset request (POST /password/forgot, the hosted form): generic result, never a template.
   * `link.returnRequestId` (the hosted form) names the authorization request the reset page leads back to.
   */
  async requestPasswordResetEmail(
    request: SvcForgotPasswordRequest,
    context?: AccountCallContext,
    link?: { readonly returnRequestId: string | null },
  ): Promise<SvcPasswordResetEmailResult> {
    const result = await this.reset.send(
      { email: request.email, clientId: request.clientId, returnRequestId: link?.returnRequestId },
      context,
    );
    return {
      maskedEmail: result.maskedEmail,
      expiresAt: result.expiresAt,
      nextAllowedSendAt: result.nextAllowedSendAt,
      message: result.message,
    };
  }

  /** The trusted reset request: optional app-owned link template, and the delivery outcome. */
  sendPasswordResetEmail(
    request: SvcSendPasswordResetEmailRequest,
    context?: AccountCallContext,
  ): Promise<SvcTrustedPasswordResetEmailResult> {
    return this.reset.send(request, context);
  }

  /** An operator's reset email to a user (`POST /users/{id}/password-reset`); see PasswordReset. */
  sendOperatorPasswordReset(userId: string, actor?: AdminActor): Promise<SvcPasswordResetDelivery> {
    return this.reset.sendByOperator(userId, actor);
  }

  /** Issues a reset token for the app to deliver itself; null when no active user with a password. */
  createPasswordResetToken(request: {
    readonly email: string;
  }): Promise<{ token: string; expiresAt: string; userId: string } | null> {
    return this.reset.createToken(request.email);
  }

  /** Sets the new password and ends all the user's sessions; `invalid_token` (400) for a bad token. */
  resetPassword(request: SvcResetPasswordRequest, context?: AccountCallContext): Promise<void> {
    return this.reset.reset(request, context);
  }

  /** True while a reset token can still set a password; never uses it (the hosted reset page's check). */
  isPasswordResetTokenLive(token: string, context?: AccountCallContext): Promise<boolean> {
    return this.reset.isTokenLive(token, context);
  }

  /** Sends a verification link (never returns the token); generic result for every address. */
  createEmailVerificationToken(
    request: SvcCreateVerificationTokenRequest,
    context?: AccountCallContext,
  ): Promise<SvcEmailVerificationResult> {
    return this.verification.send(request.email, context);
  }

  /** Verifies the address of the token's user; `invalid_token` (400) for a bad token. */
  verifyEmail(request: SvcVerifyEmailRequest, context?: AccountCallContext): Promise<void> {
    return this.verification.verify(request.token, context);
  }
}

/**
 * The public API of the Svc server package: the app factory, the in-process facades, their types and
 * errors. Everything else is internal.
 */
export { createSvc, type Svc, type CreateSvcContext } from './app/create-svc.js';
export type { SvcServices } from './app/services.js';
export { SvcAdminService } from './app/facades/svc-admin-service.js';
export { SvcAuthService, type SvcAuthCallContext } from './app/facades/svc-auth-service.js';
export type {
  SvcOptions,
  OpenIdOptions,
  SecurityDefaultsOptions,
  DatabaseTimeoutsOptions,
} from './config/options.js';
export type { SvcConfig } from './config/resolve.js';
export type { Clock } from './kernel/clock.js';
export type { Ids } from './kernel/ids.js';
export {
  SvcError,
  SvcValidationError,
  SvcNotFoundError,
  SvcConflictError,
  SvcPublicAuthError,
  SvcClientAuthenticationError,
  SvcInvalidOperationError,
  SvcConfigError,
  SvcTooManyAttemptsError,
  SvcUnavailableError,
} from './kernel/errors.js';
export type { Readiness } from './health/readiness.js';
export { SvcSendRefusedError, type RefusedSend } from './ratelimit/refused-send.js';
export type { SecuritySettings } from './settings/security-settings.js';
export type { ResolvedSecuritySettings } from './settings/security-settings-service.js';
export type { TokenService, SignOptions, VerifyOptions } from './oauth/tokens/token-service.js';
export type { AuditEventInput, AuditLog } from './audit/audit-log.js';
export type {
  SvcDeviceAuthorizationStartRequest,
  SvcApproveDeviceAuthorizationRequest,
  SvcDenyDeviceAuthorizationRequest,
  SvcPollDeviceAuthorizationRequest,
  SvcDeviceAuthorizationResponse,
  SvcDeviceAuthorization,
  SvcDeviceDecisionResult,
  SvcDevicePollResult,
} from '@svc/contract';
export type {
  SvcEmailOtpStartRequest,
  SvcEmailOtpVerifyRequest,
  SvcEmailOtpSignupStartRequest,
  SvcEmailOtpSignupVerifyRequest,
  SvcMagicLinkStartRequest,
  SvcMagicLinkCompleteRequest,
  SvcEmailOtpStartResult,
  SvcEmailOtpSignupStartResult,
  SvcMagicLinkStartResult,
} from '@svc/contract';
export type {
  SvcPhoneOtpStartRequest,
  SvcPhoneOtpVerifyRequest,
  SvcPhoneOtpStartResult,
  SvcPhoneOtpSignupStartRequest,
  SvcPhoneOtpSignupVerifyRequest,
  SvcPhoneOtpSignupStartResult,
} from '@svc/contract';
export type {
  SvcCreateEmailInvitationRequest,
  SvcAcceptEmailInvitationRequest,
  SvcAcceptEmailInvitationSignupRequest,
  SvcResendEmailInvitationRequest,
  SvcRevokeEmailInvitationRequest,
  SvcEmailInvitation,
  SvcEmailInvitationAcceptance,
} from '@svc/contract';
export type {
  SvcForgotPasswordRequest,
  SvcSendPasswordResetEmailRequest,
  SvcResetPasswordRequest,
  SvcCreateVerificationTokenRequest,
  SvcVerifyEmailRequest,
  SvcPasswordResetEmailResult,
  SvcTrustedPasswordResetEmailResult,
  SvcEmailVerificationResult,
} from '@svc/contract';
export { SVC_VERSION } from './version.js';

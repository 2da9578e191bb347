/**
 * The public API of the Svc server package: the app factory, the in-process facades, their types and
 * errors. Everything else is internal.
 */
export { createSvc, type Svc, type CreateSvcContext } from './app/create-svc.js';
export type { SvcServices } from './app/services.js';
export type { SvcAdminService, AdminActor } from './app/facades/svc-admin-service.js';
export type { SvcAuthService, SvcAuthCallContext } from './app/facades/svc-auth-service.js';
export { SvcCalendarService, type SvcCalendarCallContext } from './app/facades/svc-calendar-service.js';
export { SvcFgaService, type SvcFgaCheck } from './app/facades/svc-fga-service.js';
export { SvcSsoService } from './app/facades/svc-sso-service.js';
export { SvcCalendarError, type SvcCalendarErrorCode } from './calendar/errors.js';
export { SvcGrantBoundaryError, type GrantBoundaryErrorCode } from './scim/errors.js';
export { toSvcLoginResponse, type SvcLoginResponse } from './signin/login-response.js';
export type {
  SvcOptions,
  OpenIdOptions,
  SecurityDefaultsOptions,
  DatabaseTimeoutsOptions,
  DomainVerificationOptions,
  DnsOptions,
  LogStream,
  ScimConnectionSeedOptions,
  OidcConnectionSeedOptions,
  ScopeDisplayNameOptions,
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
  SvcMfaRequiredError,
} from './kernel/errors.js';
export type { Readiness } from './health/readiness.js';
export { SvcSendRefusedError, type RefusedSend } from './ratelimit/refused-send.js';
export type { SecuritySettings } from './settings/security-settings.js';
export type { TokenService, SignOptions, VerifyOptions } from './oauth/tokens/token-service.js';
export type { AuditEventInput, AuditLog } from './audit/audit-log.js';
/**
 * Request and result records of the facades that this package exports itself; like every other request
 * and result record they are defined in @svc/contract.
 */
export type {
  SvcPageRequest,
  ResolvedSecuritySettings,
  // Sign-in of a user the first-party client authenticated itself
  SvcClientAuthenticationRequest,
  // The device authorization grant
  SvcDeviceAuthorizationStartRequest,
  SvcApproveDeviceAuthorizationRequest,
  SvcDenyDeviceAuthorizationRequest,
  SvcPollDeviceAuthorizationRequest,
  SvcDeviceAuthorizationResponse,
  SvcDeviceAuthorization,
  SvcDeviceDecisionResult,
  SvcDevicePollResult,
  // Email OTP and magic links
  SvcEmailOtpStartRequest,
  SvcEmailOtpVerifyRequest,
  SvcEmailOtpSignupStartRequest,
  SvcEmailOtpSignupVerifyRequest,
  SvcMagicLinkStartRequest,
  SvcMagicLinkCompleteRequest,
  SvcEmailOtpStartResult,
  SvcEmailOtpSignupStartResult,
  SvcMagicLinkStartResult,
  // Phone OTP
  SvcPhoneOtpStartRequest,
  SvcPhoneOtpVerifyRequest,
  SvcPhoneOtpStartResult,
  SvcPhoneOtpSignupStartRequest,
  SvcPhoneOtpSignupVerifyRequest,
  SvcPhoneOtpSignupStartResult,
  // Invitations
  SvcCreateEmailInvitationRequest,
  SvcAcceptEmailInvitationRequest,
  SvcAcceptEmailInvitationSignupRequest,
  SvcResendEmailInvitationRequest,
  SvcRevokeEmailInvitationRequest,
  SvcEmailInvitation,
  SvcEmailInvitationAcceptance,
  // Password reset and email verification
  SvcForgotPasswordRequest,
  SvcSendPasswordResetEmailRequest,
  SvcResetPasswordRequest,
  SvcCreateVerificationTokenRequest,
  SvcVerifyEmailRequest,
  SvcPasswordResetEmailResult,
  SvcTrustedPasswordResetEmailResult,
  SvcEmailVerificationResult,
  // Calendar connections
  SvcStartCalendarConnectionRequest,
  SvcCalendarAuthorizationUrlRequest,
  SvcCalendarAuthorization,
  SvcCalendarAccessToken,
  SvcCalendarConnection,
  SvcCalendarConnectionDeleteResult,
  SvcOwnCalendarConnectionsRequest,
  SvcRevokeCalendarConnectionRequest,
  CalendarConnectionListQuery,
  CalendarCallbackError,
  // Organization domain claims
  SvcStartDomainVerificationRequest,
  SvcDomainClaimRequest,
  SvcDomainClaim,
  SvcDomainClaimStatus,
  SvcDomainCheckResult,
  SvcDomainOwnershipRecord,
  // Scope display names
  CreateScopeDisplayNameBody,
  UpdateScopeDisplayNameBody,
  SvcScopeDisplayName,
  SvcScopeDisplayNameDeleteResult,
  SvcScopeDetail,
} from '@svc/contract';
export { SVC_VERSION } from './kernel/version.js';

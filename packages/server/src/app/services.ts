import type { Readiness } from '../health/readiness.js';
import type { createAuditLog } from '../audit/audit-service.js';
import type { Antiforgery } from '../http/antiforgery.js';
import type { HostedSignInDeps } from '../hosted/sign-in-deps.js';
import type { TokenEndpoint } from '../oauth/token/token-endpoint.js';
import type { DeviceAuthorizationEndpoint } from '../oauth/device/device-authorization-endpoint.js';
import type { DeviceAuthorizations } from '../oauth/device/device-authorizations.js';
import type { UserinfoService } from '../oauth/userinfo/userinfo-service.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import type { SmsVerificationProvider } from '../sms/verify-client.js';
import type { AccountOperations } from '../account/account-operations.js';
import type { InvitationService } from '../invitations/invitation-service.js';
import type { PasswordlessSignIn } from '../passwordless/passwordless-sign-in.js';
import type { EmailService } from '../email/email-service.js';
import type { OidcConnections } from '../federation/oidc/enabled-connections.js';
import type { Discovery } from '../oauth/discovery/discovery.js';
import type { SigningKeys } from '../oauth/keys/signing-keys.js';
import type { TokenService } from '../oauth/tokens/token-service.js';
import type { SecuritySettingsService } from '../settings/security-settings-service.js';
import type { SvcAdminService } from './facades/svc-admin-service.js';
import type { SvcAuthService } from './facades/svc-auth-service.js';
import type { AuthEngine } from './wire-auth.js';

/** The services createSvc() builds; the HTTP surfaces and the CLI reach capabilities only through these. */
export interface SvcServices {
  readonly admin: SvcAdminService;
  readonly auth: SvcAuthService;
  /** The sign-in and token engine under the HTTP adapters (not a public API). */
  readonly authEngine: AuthEngine;
  readonly audit: ReturnType<typeof createAuditLog>;
  readonly securitySettings: SecuritySettingsService;
  readonly signingKeys: SigningKeys;
  readonly tokens: TokenService;
  readonly discovery: Discovery;
  /** Checks hosted form posts (double-submit, keyed by the master key, so valid on every node). */
  readonly antiforgery: Antiforgery;
  /** The hosted authorization flow (GET /authorize and the sign-in pages) and hosted logout. */
  readonly hostedSignIn: HostedSignInDeps;
  /** POST /token: client authentication and the grants. */
  readonly tokenEndpoint: TokenEndpoint;
  /** POST /device_authorization (RFC 8628). */
  readonly deviceAuthorization: DeviceAuthorizationEndpoint;
  /** The device flow: start, resolve, approve, deny, poll (the hosted and headless device pages use it). */
  readonly devices: DeviceAuthorizations;
  readonly userinfo: UserinfoService;
  /** Database-enforced rate limits (rules in `config.rateLimits`), valid across nodes. */
  readonly rateLimiter: RateLimiter;
  /** The SMS verification provider; rejects every call when SVC_SMS_* is not configured. */
  readonly smsProvider: SmsVerificationProvider;
  /** Templated email through SMTP (SVC_SMTP_URL) or the outbox, with a delivery log. */
  readonly email: EmailService;
  /** Password reset and email verification (the direct routes use it). */
  readonly account: AccountOperations;
  /** Email OTP and magic links (the direct routes use it). */
  readonly passwordless: PasswordlessSignIn;
  /** Email invitations (the operator routes use it). */
  readonly invitations: InvitationService;
  /** The enabled OIDC / social provider connections with their resolved provider profiles. */
  readonly oidcConnections: OidcConnections;
  /** Whether this node can reach its database with current migrations (GET /svc/health/ready). */
  readonly readiness: () => Promise<Readiness>;
}

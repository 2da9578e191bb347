import type { Readiness } from '../health/readiness.js';
import type { createAuditLog } from '../audit/audit-service.js';
import type { AuditSummarizer } from '../audit/summary.js';
import type { Antiforgery } from '../http/antiforgery.js';
import type { HostedSignInDeps } from '../hosted/sign-in-deps.js';
import type { TokenEndpoint } from '../oauth/token/token-endpoint.js';
import type { DeviceAuthorizationEndpoint } from '../oauth/device/device-authorization-endpoint.js';
import type { DeviceAuthorizations } from '../oauth/device/device-authorizations.js';
import type { UserinfoService } from '../oauth/userinfo/userinfo-service.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import type { SmsVerificationProvider } from '../sms/verify-client.js';
import type { AccountOperations } from '../account/account-operations.js';
import type { InvitationService } from '../signin/methods/invitation/invitation-service.js';
import type { OperatorTokenCheck } from '../admin/operator-token.js';
import type { PasswordlessSignIn } from '../signin/methods/email-otp/passwordless-sign-in.js';
import type { EmailService } from '../email/email-service.js';
import type { OidcConnections } from '../federation/oidc/enabled-connections.js';
import type { DomainClaims } from '../organizations/domains/domain-claims.js';
import type { SamlAssertionConsumer } from '../federation/saml/assertion-consumer.js';
import type { HomeRealmDiscovery } from '../federation/saml/home-realm.js';
import type { SamlAccounts } from '../federation/saml/saml-accounts.js';
import type { SamlServiceProvider } from '../federation/saml/service-provider.js';
import type { SamlContinuationHandler } from '../federation/saml/continuations.js';
import type { SsoPortalWiring } from './wire-sso-portal.js';
import type { ClientRegistration } from '../oauth/clients/registration/client-registration.js';
import type { Discovery } from '../oauth/discovery/discovery.js';
import type { ScimServiceProvider } from '../scim/service-provider.js';
import type { ScimDirectoryEvents } from '../scim/directory-events.js';
import type { SigningKeys } from '../oauth/keys/signing-keys.js';
import type { TokenService } from '../oauth/tokens/token-service.js';
import type { SecuritySettingsService } from '../settings/security-settings-service.js';
import type { SvcAdminService } from './facades/svc-admin-service.js';
import type { SvcAuthService } from './facades/svc-auth-service.js';
import type { SvcCalendarService } from './facades/svc-calendar-service.js';
import type { CalendarConsent } from '../calendar/calendar-consent.js';
import type { AuthEngine } from './wire-auth.js';
import type { FgaAdmin } from '../fga/fga-admin.js';
import type { ApplicationAccessAdmin } from '../applications/access-admin.js';
import type { OperatorDashboard } from '../operator-dashboard/operator-dashboard.js';
import type { SvcFgaService } from './facades/svc-fga-service.js';
import type { SvcSsoService } from './facades/svc-sso-service.js';

/**
 * The services createSvc() builds; the HTTP surfaces and the CLI reach capabilities only through these.
 * A host may rely on `admin`, `auth`, `audit`, `tokens`, `calendar`, `fga`, `sso` and `readiness`. The members tagged internal are
 * the wiring of the HTTP surfaces, the CLI and the tests: they may change in any release and are left
 * out of the published declarations (`stripInternal`; docs/reference/configuration.md "Embedding").
 */
export interface SvcServices {
  /** The in-process operator API (SvcAdminService). */
  readonly admin: SvcAdminService;
  /** The in-process sign-in and session API (SvcAuthService). */
  readonly auth: SvcAuthService;
  /** @internal The sign-in and token engine under the HTTP adapters. */
  readonly authEngine: AuthEngine;
  readonly audit: ReturnType<typeof createAuditLog>;
  /** @internal The audit API's overview (`GET /svc/admin/audit/api/events/summary`). */
  readonly auditSummary: AuditSummarizer;
  /** @internal */
  readonly securitySettings: SecuritySettingsService;
  /** @internal */
  readonly signingKeys: SigningKeys;
  readonly tokens: TokenService;
  /** @internal */
  readonly discovery: Discovery;
  /** @internal POST /register (RFC 7591); null while dynamic client registration is off. */
  readonly registration: ClientRegistration | null;
  /** @internal Checks hosted form posts (double-submit, keyed by the master key, so valid on every node). */
  readonly antiforgery: Antiforgery;
  /** @internal The hosted authorization flow (GET /authorize and the sign-in pages) and hosted logout. */
  readonly hostedSignIn: HostedSignInDeps;
  /** @internal POST /token: client authentication and the grants. */
  readonly tokenEndpoint: TokenEndpoint;
  /** @internal POST /device_authorization (RFC 8628). */
  readonly deviceAuthorization: DeviceAuthorizationEndpoint;
  /** @internal The device flow: start, resolve, approve, deny, poll (the hosted and headless device pages use it). */
  readonly devices: DeviceAuthorizations;
  /** @internal */
  readonly userinfo: UserinfoService;
  /** @internal Database-enforced rate limits (rules in `config.rateLimits`), valid across nodes. */
  readonly rateLimiter: RateLimiter;
  /** @internal The SMS verification provider; rejects every call when SVC_SMS_* is not configured. */
  readonly smsProvider: SmsVerificationProvider;
  /** @internal Templated email through SMTP (SVC_SMTP_URL) or the outbox, with a delivery log. */
  readonly email: EmailService;
  /** @internal Password reset and email verification (the direct routes use it). */
  readonly account: AccountOperations;
  /** @internal Email OTP and magic links (the direct routes use it). */
  readonly passwordless: PasswordlessSignIn;
  /** @internal Email invitations (the operator routes use it). */
  readonly invitations: InvitationService;
  /** @internal The operator token of the admin surfaces, with its failure limit. */
  readonly operatorToken: OperatorTokenCheck;
  /** @internal The enabled OIDC / social provider connections with their resolved provider profiles. */
  readonly oidcConnections: OidcConnections;
  /**
   * The in-process calendar connections API (SvcCalendarService): start a user's consent, get a fresh
   * provider access token, list and revoke connections.
   */
  readonly calendar: SvcCalendarService;
  /** @internal The calendar consent GET /calendar/callback finishes. */
  readonly calendarConsent: CalendarConsent;
  /** @internal Organization domain claims; `activeClaimOf(domain)` names the organization that owns a domain. */
  readonly domainClaims: DomainClaims;
  /** @internal Svc as the SAML service provider of each SSO connection: SP metadata, AuthnRequests, ACS. */
  readonly samlServiceProvider: SamlServiceProvider;
  /** @internal Svc as the SCIM 2.0 service provider of each SCIM connection (`/svc/scim/v2`). */
  readonly scimServiceProvider: ScimServiceProvider;
  /**
   * @internal SCIM group membership and connection changes, published before each SCIM answer; the group
   * mapping rules subscribe to revoke the grants a change ends.
   */
  readonly scimEvents: ScimDirectoryEvents;
  /**
   * The in-process fine-grained authorization API (SvcFgaService): `checkAsync` on every request of a
   * host app, `explainAsync`, and grants made and revoked by a source that manages them.
   */
  readonly fga: SvcFgaService;
  /** @internal The FGA model's operations (the operator API at /svc/admin/fga/api). */
  readonly fgaAdmin: FgaAdmin;
  /** @internal The bundled dashboards' sign-in and the operator sessions it starts. */
  readonly dashboard: OperatorDashboard;
  /** @internal Application access's operations (the operator API's /applications routes). */
  readonly applicationAccess: ApplicationAccessAdmin;
  /**
   * The in-process SSO API (SvcSsoService): StartAuthorizationAsync and ExchangeCodeAsync (the direct
   * SAML request-token flow; docs/reference/federation.md "SAML entry points of first-party apps"), and what
   * `POST /sso/authorization-url` calls.
   */
  readonly sso: SvcSsoService;
  /** @internal The customer SSO setup portal: its sessions, setup operations and test sign-in handler. */
  readonly ssoPortal: SsoPortalWiring;
  /**
   * @internal The continuation handlers of SAML sign-ins started by entry points other than the engine's
   * own sign-in (`sso-authorization`, `request-token`, the setup portal's `portal-test`), one per kind,
   * for the ACS route to dispatch to.
   */
  readonly samlContinuationHandlers: readonly SamlContinuationHandler[];
  /** @internal The ACS: accepted SAML answers and the continuations they go on to. */
  readonly samlAssertionConsumer: SamlAssertionConsumer;
  /** @internal Home-realm discovery (DiscoverAsync's lookup): the SSO realm of an address. */
  readonly samlRealms: HomeRealmDiscovery;
  /** @internal The account an accepted SAML answer signs in as (provisioning, linking, membership). */
  readonly samlAccounts: SamlAccounts;
  /** Whether this node can reach its database with current migrations (GET /svc/health/ready). */
  readonly readiness: () => Promise<Readiness>;
}

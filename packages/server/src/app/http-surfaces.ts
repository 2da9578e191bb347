import type { AccountOperations } from '../account/account-operations.js';
import type { OperatorTokenCheck } from '../admin/operator-token.js';
import type { ApplicationAccessAdmin } from '../applications/access-admin.js';
import type { AuditReader } from '../audit/audit-service.js';
import type { AuditSummarizer } from '../audit/summary.js';
import type { CalendarConsent } from '../calendar/calendar-consent.js';
import type { EmailService } from '../email/email-service.js';
import type { SamlAssertionConsumer } from '../federation/saml/assertion-consumer.js';
import type { SsoMetadataUrlImport } from '../federation/saml/metadata-url-import.js';
import type { SamlServiceProvider } from '../federation/saml/service-provider.js';
import type { FgaAdmin } from '../fga/fga-admin.js';
import type { Readiness } from '../health/readiness.js';
import type { HostedSignInDeps } from '../hosted/sign-in-deps.js';
import type { Antiforgery } from '../http/antiforgery.js';
import type { ClientRegistration } from '../oauth/clients/registration/client-registration.js';
import type { DeviceAuthorizationEndpoint } from '../oauth/device/device-authorization-endpoint.js';
import type { Discovery } from '../oauth/discovery/discovery.js';
import type { SigningKeys } from '../oauth/keys/signing-keys.js';
import type { TokenEndpoint } from '../oauth/token/token-endpoint.js';
import type { UserinfoService } from '../oauth/userinfo/userinfo-service.js';
import type { OperatorDashboard } from '../operator-dashboard/operator-dashboard.js';
import type { ScimServiceProvider } from '../scim/service-provider.js';
import type { PasswordlessSignIn } from '../signin/methods/email-otp/passwordless-sign-in.js';
import type { InvitationService } from '../signin/methods/invitation/invitation-service.js';
import type { MfaOperations } from '../signin/methods/mfa/mfa-operations.js';
import type { SvcAdminService } from './facades/svc-admin-service.js';
import type { SvcAuthProviders } from './facades/svc-auth-providers.js';
import type { SvcAuthService } from './facades/svc-auth-service.js';
import type { SvcCalendarService } from './facades/svc-calendar-service.js';
import type { SvcSsoService } from './facades/svc-sso-service.js';
import type { SsoPortalWiring } from './wire-sso-portal.js';

/** The discovery documents (RFC 8414, OpenID Connect Discovery) and the JWKS. */
export interface DiscoverySurface {
  readonly discovery: Discovery;
  readonly keys: SigningKeys;
}

/** The OAuth endpoints: /token, /device_authorization, /register, /userinfo, the SAML SP metadata. */
export interface OAuthSurface {
  readonly tokenEndpoint: TokenEndpoint;
  readonly deviceAuthorization: DeviceAuthorizationEndpoint;
  /** POST /register (RFC 7591); null while dynamic client registration is off. */
  readonly registration: ClientRegistration | null;
  readonly userinfo: UserinfoService;
  readonly samlServiceProvider: SamlServiceProvider;
}

/** The direct JSON helpers of first-party apps. */
export interface DirectSurface {
  readonly auth: SvcAuthService;
  readonly passwordless: PasswordlessSignIn;
  readonly mfa: MfaOperations;
  readonly account: AccountOperations;
  readonly sso: SvcSsoService;
}

/** The hosted pages, the headless API and the SAML ACS: one sign-in flow under three shells. */
export interface HostedSurface {
  readonly signIn: HostedSignInDeps;
  /** Checks hosted form posts (double-submit, keyed by the master key, so valid on every node). */
  readonly antiforgery: Antiforgery;
  readonly samlAssertionConsumer: SamlAssertionConsumer;
}

/** Calendar connections: the consent's callback, the direct and the operator routes (mapped only while on). */
export interface CalendarSurface {
  readonly calendar: SvcCalendarService;
  readonly consent: CalendarConsent;
}

/** The operator APIs behind the operator guard (the bearer token or a dashboard session). */
export interface OperatorSurface {
  readonly token: OperatorTokenCheck;
  readonly dashboard: OperatorDashboard;
  readonly admin: SvcAdminService;
  readonly applicationAccess: ApplicationAccessAdmin;
  readonly invitations: InvitationService;
  readonly account: AccountOperations;
  readonly email: EmailService;
  readonly fga: FgaAdmin;
  readonly audit: AuditReader;
  readonly auditSummary: AuditSummarizer;
  /** Home-realm discovery, for the operators' preview of where an address signs in. */
  readonly homeRealms: Pick<SvcAuthProviders, 'discoverAsync'>;
  /** SAML metadata imported from the IdP's URL. */
  readonly ssoMetadataUrls: SsoMetadataUrlImport;
}

/**
 * What createSvc() hands the HTTP plugin: one part per surface, each mounted from its own part only
 * (app/http.ts).
 */
export interface SvcHttpSurfaces {
  readonly readiness: () => Promise<Readiness>;
  readonly discovery: DiscoverySurface;
  readonly oauth: OAuthSurface;
  readonly direct: DirectSurface;
  readonly hosted: HostedSurface;
  readonly calendar: CalendarSurface;
  readonly operator: OperatorSurface;
  /** Svc as the SCIM 2.0 service provider of each SCIM connection. */
  readonly scim: ScimServiceProvider;
  /** The customer SSO setup portal: its sessions, setup operations and CSRF tokens. */
  readonly setupPortal: Pick<SsoPortalWiring, 'sessions' | 'setup' | 'csrf'>;
}

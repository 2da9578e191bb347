import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { SvcConfig } from '../config/resolve.js';
import type { DatabaseHandle } from '../storage/database.js';
import type { HousekeepingReport } from './housekeeping.js';
import type { DemoSeed } from './seed-demo.js';
import type { Readiness } from '../health/readiness.js';
import type { createAuditLog } from '../audit/audit-service.js';
import type { HostedSignInDeps } from '../hosted/sign-in-deps.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import type { SmsVerificationProvider } from '../sms/verify-client.js';
import type { AccountOperations } from '../account/account-operations.js';
import type { InvitationService } from '../signin/methods/invitation/invitation-service.js';
import type { PasswordlessSignIn } from '../signin/methods/email-otp/passwordless-sign-in.js';
import type { EmailService } from '../email/email-service.js';
import type { OidcConnections } from '../federation/oidc/enabled-connections.js';
import type { DomainClaims } from '../organizations/domains/domain-claims.js';
import type { SamlServiceProvider } from '../federation/saml/service-provider.js';
import type { SamlContinuationHandler } from '../federation/saml/continuations.js';
import type { SsoPortalWiring } from './wire-sso-portal.js';
import type { ScimDirectoryEvents } from '../scim/directory-events.js';
import type { SigningKeys } from '../oauth/keys/signing-keys.js';
import type { TokenService } from '../oauth/tokens/token-service.js';
import type { SecuritySettingsService } from '../settings/security-settings-service.js';
import type { SvcAdminService } from './facades/svc-admin-service.js';
import type { SvcAuthService } from './facades/svc-auth-service.js';
import type { SvcCalendarService } from './facades/svc-calendar-service.js';
import type { AuthEngine } from './wire-auth.js';
import type { DeviceAuthorizations } from '../oauth/device/device-authorizations.js';
import type { UnverifiedAccountClaim } from '../directory/unverified-account-claim.js';
import type { SvcFgaService } from './facades/svc-fga-service.js';
import type { SvcSsoService } from './facades/svc-sso-service.js';

/**
 * The services of a built Svc. A host may rely on `admin`, `auth`, `audit`, `tokens`, `calendar`, `fga`,
 * `sso` and `readiness`. The members tagged internal are handles the CLI and the tests reach in by: they
 * may change in any release and are left out of the published declarations (`stripInternal`;
 * docs/reference/configuration.md "Embedding"). The HTTP surfaces are not built from this object but
 * from their own parts (app/http-surfaces.ts).
 */
export interface SvcServices {
  /** The in-process operator API (SvcAdminService). */
  readonly admin: SvcAdminService;
  /** The in-process sign-in and session API (SvcAuthService). */
  readonly auth: SvcAuthService;
  /** @internal The sign-in and token engine under the HTTP adapters. */
  readonly authEngine: AuthEngine;
  readonly audit: ReturnType<typeof createAuditLog>;
  /** @internal */
  readonly securitySettings: SecuritySettingsService;
  /** @internal */
  readonly signingKeys: SigningKeys;
  readonly tokens: TokenService;
  /** @internal The device flow: start, resolve, approve, deny, poll (the hosted and headless device pages use it). */
  readonly devices: DeviceAuthorizations;
  /** @internal Hands an unverified account to whoever proves its address (emailed codes and links, resets). */
  readonly accountClaims: UnverifiedAccountClaim;
  /** @internal The hosted authorization flow (GET /authorize and the sign-in pages) and hosted logout. */
  readonly hostedSignIn: HostedSignInDeps;
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
  /** @internal The enabled OIDC / social provider connections with their resolved provider profiles. */
  readonly oidcConnections: OidcConnections;
  /**
   * The in-process calendar connections API (SvcCalendarService): start a user's consent, get a fresh
   * provider access token, list and revoke connections.
   */
  readonly calendar: SvcCalendarService;
  /** @internal Organization domain claims; `activeClaimOf(domain)` names the organization that owns a domain. */
  readonly domainClaims: DomainClaims;
  /** @internal Svc as the SAML service provider of each SSO connection: SP metadata, AuthnRequests, ACS. */
  readonly samlServiceProvider: SamlServiceProvider;
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
  /** Whether this node can reach its database with current migrations (GET /svc/health/ready). */
  readonly readiness: () => Promise<Readiness>;
}

/** What createSvc() answers: the public services (see SvcServices), the HTTP entry points and the lifecycle. */
export interface Svc extends SvcServices {
  readonly config: SvcConfig;
  /** @internal The database connection (tests and the benchmark read it directly). */
  readonly database: DatabaseHandle;
  /** What the demo seed created on this start, when `seedDemo` is on. */
  readonly demo: DemoSeed | undefined;
  /** Mount Svc in a host Fastify app: `await host.register(svc.plugin)`. Routes live under the dashboard base. */
  readonly plugin: FastifyPluginAsync;
  /** The standalone Fastify instance (used by the CLI, `inject()` in tests, and the Node handler). */
  readonly app: FastifyInstance;
  /** A plain Node `(req, res)` handler for `http.createServer()` or any framework that forwards raw requests. */
  readonly handler: (request: IncomingMessage, response: ServerResponse) => void;
  /**
   * Runs the housekeeping a node does every hour (signing keys; expired requests, codes, links, tokens,
   * counters; re-checks of domain claims) once now; for tests and for hosts that schedule it themselves.
   */
  housekeeping(): Promise<HousekeepingReport>;
  /** Listens on the configured host and port; resolves to the address. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export interface CreateSvcContext {
  /** Environment to read SVC_* variables from. @default process.env; pass {} to ignore the environment. */
  readonly env?: NodeJS.ProcessEnv;
}

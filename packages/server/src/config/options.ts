import type { CreateOidcConnectionBody } from '@svc/contract';
import type { Clock } from '../kernel/clock.js';
import type { Ids } from '../kernel/ids.js';
import type { FailureRulesOptions } from '../ratelimit/failure-rules.js';
import type { RateLimitRulesOptions } from '../ratelimit/rules.js';

/** A destination of log lines: each call writes one line of JSON, newline included. */
export interface LogStream {
  write(line: string): void;
}

/** Signing-key and session lifetimes: the initial security settings, stored on first start. */
export interface SecurityDefaultsOptions {
  /** @default 43200 (30 days) */
  refreshTokenLifetimeMinutes?: number;
  /** @default 20160 (14 days) */
  sessionIdleTimeoutMinutes?: number;
  /** @default 129600 (90 days) */
  sessionAbsoluteLifetimeMinutes?: number;
  /** @default 90 */
  signingKeyRotationIntervalDays?: number;
  /** @default 7; must be shorter than the rotation interval */
  signingKeyGraceWindowDays?: number;
  /** @default 30 */
  signingKeyRetiredCleanupDays?: number;
  /** @default 30 */
  refreshTokenGraceWindowSeconds?: number;
}

/** Fail-fast limits on waiting for the database, in milliseconds. */
export interface DatabaseTimeoutsOptions {
  /** Opening a connection, or waiting for a free one of the pool. @default 3000 (SVC_DB_CONNECT_TIMEOUT_MS) */
  connectMs?: number;
  /** One statement (PostgreSQL statement_timeout, SQLite busy timeout). @default 5000 (SVC_DB_STATEMENT_TIMEOUT_MS) */
  statementMs?: number;
  /** A transaction left idle by a stalled node before PostgreSQL ends it. @default 10000 (SVC_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS) */
  idleInTransactionMs?: number;
}

/** OpenID provider mode and what it publishes. */
export interface OpenIdOptions {
  /** OpenID provider mode: ID tokens, userinfo, the openid-configuration document. @default true */
  enabled?: boolean;
  /** Publish `/.well-known/openid-configuration`. @default true */
  publishDiscoveryDocument?: boolean;
  /** Map `/userinfo` (needs provider mode). @default true */
  enableUserInfoEndpoint?: boolean;
}

/**
 * The SMS verification provider of phone OTP (Twilio Verify API shape; docs/reference/configuration.md
 * "Environment variables", docs/reference/email-and-sms.md).
 */
export interface SmsOptions {
  /** Account id, the HTTP Basic user name (SVC_SMS_ACCOUNT_ID) */
  accountId?: string;
  /** Auth credential, the HTTP Basic password (SVC_SMS_AUTH_TOKEN) */
  authToken?: string;
  /** Verify service id, the `{sid}` of `/v2/Services/{sid}/…` (SVC_SMS_VERIFY_SERVICE_ID) */
  verifyServiceId?: string;
  /** ISO 3166 region for numbers typed without a country code, e.g. 'US' (SVC_SMS_DEFAULT_REGION) */
  defaultRegion?: string;
  /** A compatible API server. @default 'https://verify.twilio.com' (SVC_SMS_API_BASE_URL) */
  apiBaseUrl?: string;
  /**
   * Toll-fraud protection: codes are texted only to numbers of these ISO 3166 regions (e.g. ['US', 'CA']);
   * must include `defaultRegion`. Give this or `deniedCountries`. @default every country (SVC_SMS_ALLOWED_COUNTRIES)
   */
  allowedCountries?: string[];
  /** Codes are never texted to numbers of these regions. @default none (SVC_SMS_DENIED_COUNTRIES) */
  deniedCountries?: string[];
}

/**
 * Organization domain claims proven by a DNS TXT record (docs/reference/organizations.md "The TXT look-up"):
 * the record is named `<recordPrefix>.<domain>` and holds `<valuePrefix>=<value>`.
 */
export interface DomainVerificationOptions {
  /** The record name's prefix. @default '_svc-verify' (SVC_DOMAIN_VERIFICATION_RECORD_PREFIX) */
  recordPrefix?: string;
  /** The record value's prefix. @default 'svc-domain-verification' (SVC_DOMAIN_VERIFICATION_VALUE_PREFIX) */
  valuePrefix?: string;
  /** How long an active claim goes unchecked; at least 60000. @default 86400000 (24 h) (SVC_DOMAIN_RECHECK_INTERVAL_MS) */
  recheckIntervalMs?: number;
  /** Scheduled re-checks in a row that find no record before the claim is revoked. @default 3 (SVC_DOMAIN_REVOKE_AFTER_FAILED_CHECKS) */
  revokeAfterFailedChecks?: number;
}

/** The resolvers Svc asks for DNS records (domain claims' TXT records). */
export interface DnsOptions {
  /** `host:port` entries (IP addresses; port 53 when omitted). @default the system's resolvers (SVC_DNS_SERVERS) */
  servers?: string[];
  /** One look-up's deadline, every try included. @default 5000 (SVC_DNS_TIMEOUT_MS) */
  timeoutMs?: number;
}

/**
 * Fetching an identity provider's metadata from a URL a customer's admin typed in the SSO setup portal
 * (docs/reference/federation.md "The portal API and page"). Only public addresses are fetched from unless
 * listed here.
 */
export interface SsoMetadataFetchOptions {
  /**
   * Networks Svc may fetch metadata from although they are not public: addresses and CIDR ranges of an
   * on-premises IdP (e.g. `['10.20.0.0/16']`). Anyone holding a setup link can then make Svc request
   * https URLs in them. @default [] (SVC_SSO_METADATA_ALLOWED_NETWORKS, comma-separated)
   */
  allowedPrivateNetworks?: string[];
  /** PEM certificates of CAs trusted beside Node's roots (or set NODE_EXTRA_CA_CERTS). @default [] */
  caCertificates?: string[];
  /** The whole fetch's deadline. @default 5000 */
  timeoutMs?: number;
}

/**
 * Requests to the providers of OpenID / social connections (discovery, token, JWKS, UserInfo, GitHub's
 * APIs) and the calendar grants made through them: only public addresses are called unless listed here
 * (docs/decisions/federation-provider-destinations.md).
 */
export interface ProviderFetchOptions {
  /**
   * Networks Svc may call providers in although they are not public: addresses and CIDR ranges of an
   * on-premises IdP (e.g. `['10.20.0.0/16']`). Loopback is `allowInsecureLoopback`'s.
   * @default [] (SVC_PROVIDER_ALLOWED_NETWORKS, comma-separated)
   */
  allowedPrivateNetworks?: string[];
  /** PEM certificates of CAs trusted beside Node's roots (or set NODE_EXTRA_CA_CERTS). @default [] */
  caCertificates?: string[];
}

/**
 * A SCIM connection configured in code (docs/reference/scim.md "Seeded from code": the boundary
 * from the seed and a token or tokenSecretName). Written on every start; the operator API
 * cannot change it.
 */
export interface ScimConnectionSeedOptions {
  /** The connection's id: stable across starts, so the seed updates the same connection. */
  id: string;
  /** An existing organization. */
  organizationId: string;
  /** @default 'SCIM' */
  displayName?: string;
  /** The FGA resource that bounds the grants of the connection's mappings; at most 256 characters. */
  grantBoundaryResourceId?: string;
  /** @default true */
  enabled?: boolean;
  /** The bearer token: 32 or more characters, no whitespace. Give this or `tokenSecretName`. */
  token?: string;
  /** The name of the environment variable that holds the token. */
  tokenSecretName?: string;
}

/**
 * An OpenID / social provider connection configured in code: the operator API's connection input
 * (`providerType`, `clientId`, `allowedCallbackUris`, …) with a stable id. Written on every start; the
 * operator API lists and reads it (`owner: 'code'`) but cannot change, disable or delete it.
 */
export interface OidcConnectionSeedOptions extends Omit<
  CreateOidcConnectionBody,
  'clientSecret' | 'applePrivateKeyPem'
> {
  /** The connection's id: stable across starts, so the seed updates the same connection. */
  id: string;
  /** The provider's client secret (every provider but Apple). Give this or `clientSecretName`. */
  clientSecret?: string;
  /** The name of the environment variable that holds the client secret. */
  clientSecretName?: string;
  /** Apple's PKCS#8 PEM key. Give this or `applePrivateKeyPemName`. */
  applePrivateKeyPem?: string;
  /** The name of the environment variable that holds Apple's key. */
  applePrivateKeyPemName?: string;
}

/**
 * Dynamic client registration (RFC 7591): apps register themselves as public clients at
 * `POST {issuer}/register`, without an operator (docs/decisions/dynamic-client-registration.md).
 */
export interface DynamicClientRegistrationOptions {
  /** Map `POST /register` and name it in discovery (`registration_endpoint`). @default false (SVC_DCR_ENABLED) */
  enabled?: boolean;
  /**
   * The scopes a registration may ask for; a scope outside is refused with invalid_client_metadata.
   * Empty: any scope is registered as asked, so set it before opening registration to the internet.
   * A client that names no `scope` gets all of them (with none: `openid profile email`).
   * @default [] (SVC_DCR_ALLOWED_SCOPES, space- or comma-separated)
   */
  allowedScopes?: string[];
  /**
   * The audience of registered clients' access tokens (an operator may change a client's afterwards).
   * @default the issuer (SVC_DCR_AUDIENCE)
   */
  audience?: string;
  /** Scopes one registration may ask for. @default 32 */
  maxScopeCount?: number;
  /** Characters of one scope. @default 128 */
  maxScopeLength?: number;
}

/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document): an app names itself by
 * the https URL of a JSON document of its metadata, which Svc fetches where the app first appears
 * (`/authorize`, `/device_authorization`) and again once the copy is stale. The app is a public,
 * third-party client like a registered one; the same scope and audience settings apply to it.
 */
export interface ClientIdMetadataDocumentOptions extends DynamicClientRegistrationOptions {
  /** Accept URL client IDs and say so in discovery. @default false (SVC_CIMD_ENABLED) */
  enabled?: boolean;
  /**
   * The hosts documents may come from: names (`app.example.com`) and subdomain patterns
   * (`*.example.com`). Empty: any host on the public internet.
   * @default [] (SVC_CIMD_ALLOWED_HOSTS, space- or comma-separated)
   */
  allowedHosts?: string[];
  /** @default [] (SVC_CIMD_ALLOWED_SCOPES) */
  allowedScopes?: string[];
  /** @default the issuer (SVC_CIMD_AUDIENCE) */
  audience?: string;
  /** Milliseconds one fetch of a document may take. @default 5000 */
  timeoutMs?: number;
  /** PEM certificates trusted beside Node's roots for documents' hosts (an internal CA). @default [] */
  caCertificates?: string[];
  /**
   * Fetch documents from a loopback host (`localhost`, 127.0.0.0/8, `[::1]`), over http too: an app
   * developed on the same machine. Off in every mode; development and `allowInsecureLoopback` do not
   * turn it on. @default false (SVC_CIMD_ALLOW_LOOPBACK)
   */
  allowLoopback?: boolean;
}

/**
 * A scope's display name set in code (`code`-owned: docs/reference/tokens-and-sessions.md, scope display
 * names): consent and grant lists show it, it wins over an operator's entry for the same scope, and the
 * operator API lists it but cannot change or delete it.
 */
export interface ScopeDisplayNameOptions {
  /** An RFC 6749 scope token of at most 200 characters, not `auth:*`; one entry per scope. */
  scope: string;
  /** What the user reads for the scope; 1 to 100 characters (trimmed), no control characters. */
  displayName: string;
  /** A sentence under the name; at most 500 characters (trimmed), no control characters. */
  description?: string;
}

/**
 * Options of `createSvc()`. Every option has an `SVC_*` environment variable of the same meaning
 * (see config/env.ts); an option given here wins over the environment.
 */
export interface SvcOptions {
  /** Listen port of the standalone server. @default 8080 (SVC_PORT) */
  port?: number;
  /** Listen address of the standalone server. @default '127.0.0.1' (SVC_HOST) */
  host?: string;
  /** Public origin; the issuer is this plus the auth base. @default `http://localhost:<port>` (SVC_PUBLIC_ORIGIN) */
  publicOrigin?: string;
  /** An explicit issuer; must be absolute and its path must equal the auth base. @default publicOrigin + auth base */
  issuer?: string;
  /** Dashboard base path; the auth base is always `<dashboardBase>/auth`. @default '/svc' (SVC_DASHBOARD_BASE) */
  dashboardBase?: string;
  /** `sqlite:<path>`, `sqlite::memory:` or `postgres://…`. @default 'sqlite:./data/svc.db' (SVC_DATABASE_URL) */
  databaseUrl?: string;
  /** Folder for the generated master key and the default SQLite file. @default './data' (SVC_DATA_DIR) */
  dataDir?: string;
  /** Operator bearer token for the admin APIs; unset = no bearer access (SVC_ADMIN_TOKEN) */
  adminToken?: string;
  /** Master key (32 bytes as base64, base64url or 64 hex digits) that encrypts secrets at rest (SVC_SECRET_KEY) */
  secretKey?: string;
  /** SMTP delivery URL; unset = the outbox (SVC_SMTP_URL) */
  smtpUrl?: string;
  /** From header of every email. @default 'Svc <no-reply@localhost>' (SVC_EMAIL_FROM) */
  emailFrom?: string;
  /** SMS verification provider; all four of account id, auth token, service id and region, or none (phone OTP off). */
  sms?: SmsOptions;
  /** Seed the demo organization, user and clients. @default false (SVC_SEED_DEMO; `npm start` turns it on) */
  seedDemo?: boolean;
  /**
   * How long a node waits on the database before it answers 503 `temporarily_unavailable` instead
   * (docs/deploy.md "When the database has a bad day").
   */
  databaseTimeouts?: DatabaseTimeoutsOptions;
  /**
   * How long a node trusts the signing keys it read before reading them again: after a rotation on
   * another node, this node signs with the new key within this time. @default 30000 (SVC_SIGNING_KEY_CACHE_MS)
   */
  signingKeyCacheMs?: number;
  /** Apply pending migrations when the service starts. @default true */
  migrateOnStart?: boolean;
  /** Run the hourly housekeeping in this process (signing-key rotation and cleanup, expired authorization requests). @default true */
  keyRotationSchedule?: boolean;
  openId?: OpenIdOptions;
  /**
   * The argon2id cost of new password hashes: memory in KiB and passes. Outside development mode a cost
   * must reach one of the OWASP cheat sheet's minimums (e.g. 19456 KiB with 2 passes, or 47104 with 1);
   * development mode allows down to argon2id's floor (8 KiB, 1 pass), which tests use. Existing hashes
   * verify at the cost they were made with. @default { memoryCost: 19456, timeCost: 2 }
   */
  passwordHashing?: { memoryCost?: number; timeCost?: number };
  /** Initial security settings (stored on first start; later changed through the operator API). */
  security?: SecurityDefaultsOptions;
  /**
   * Rate-limit overrides per rule and subject, e.g. `{ otpSend: { identifier: { limit: 3 } } }`; `null`
   * removes a limit. Defaults: DEFAULT_RATE_LIMIT_RULES in ratelimit/rules.ts.
   */
  rateLimits?: RateLimitRulesOptions;
  /**
   * Overrides of the limits on guessing secrets (passwords, second factors, one-time codes), e.g.
   * `{ mfaUser: { threshold: 3 } }`. Defaults: DEFAULT_FAILURE_RULES in ratelimit/failure-rules.ts.
   */
  failureLimits?: FailureRulesOptions;
  /**
   * Log level of the standalone server; false turns logging off. A successful request writes no line
   * unless the access log is on; errors, refusals worth an operator's eye and slow requests are logged.
   * @default 'info' in production or with the access log, 'warn' otherwise (SVC_LOG_LEVEL)
   */
  logLevel?: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | false;
  /**
   * The access log: one `request completed` line at info per request (method, URL with secret query
   * values redacted, client address, status, response time in ms). It costs CPU on every request (see
   * the README's performance section); needs a level of info or lower. @default false (SVC_ACCESS_LOG)
   */
  accessLog?: boolean;
  /**
   * A request that takes at least this many milliseconds, from routing to the last byte written, is
   * logged at warn as `slow request`, access log or not. @default 1000 (SVC_SLOW_REQUEST_MS)
   */
  slowRequestMs?: number;
  /** Where the standalone server's log lines (newline-delimited JSON) go. @default standard output */
  logStream?: LogStream;
  /** Serve the headless sign-in API; false answers every headless route with 404. @default true */
  enableApi?: boolean;
  /**
   * Absolute path of the headless API; must lie under the auth base (the issuer session cookie's Path).
   * @default `<authBase>/headless` ('/svc/auth/headless')
   */
  headlessApiBasePath?: string;
  /**
   * Browser origins (scheme, host, port) allowed to call the headless API with credentials (CORS).
   * @default [] (same-origin only)
   */
  headlessAllowedOrigins?: string[];
  /**
   * An app-owned sign-in UI (absolute https URL; http only on loopback): GET /authorize sends the browser
   * there instead of the hosted pages, with the query parameters request, view, email, pendingToken and
   * ui_context, and the UI drives the request through the headless API. Needs `enableApi`.
   * @default none (the hosted pages)
   */
  headlessUiUrl?: string;
  /**
   * Which proxies in front of the standalone server to believe about the client address
   * (`X-Forwarded-For`): true (every hop: only when nothing can reach the nodes but the balancer), a
   * number of hops, or the balancers' addresses and CIDR ranges. Per-IP rate limits and the audit log use
   * that address. @default false (the TCP peer) (SVC_TRUST_PROXY)
   */
  trustProxy?: boolean | number | string[];
  /** Development mode relaxes Secure cookies on loopback. @default NODE_ENV !== 'production' */
  development?: boolean;
  /**
   * Let Svc call providers on this machine: a provider's discovery, token, JWKS and UserInfo endpoints on
   * `localhost`, `127.0.0.1` or `[::1]`, plain http too, during local development. Off in every mode,
   * development included: without it a provider endpoint on loopback (one a discovery document names,
   * or a host name that resolves there) is refused. @default false (SVC_ALLOW_INSECURE_LOOPBACK)
   */
  allowInsecureLoopback?: boolean;
  /** Requests to the providers of OpenID / social connections and of calendar connections. */
  providerFetch?: ProviderFetchOptions;
  /**
   * Calendar connections: a signed-in user connects a Google or Microsoft calendar; `/calendar/callback`
   * and the operator routes under `/svc/admin/calendar` exist only while on (SVC_CALENDAR_ENABLED).
   * @default true
   */
  calendar?: { enabled?: boolean };
  /** Domain claims: the TXT record's prefixes and how often active claims are checked again. */
  domainVerification?: DomainVerificationOptions;
  /** Where DNS look-ups go. */
  dns?: DnsOptions;
  /** The setup portal's metadata fetch from a URL. */
  ssoMetadataFetch?: SsoMetadataFetchOptions;
  /** Dynamic client registration at `POST /register` (off by default). */
  dynamicClientRegistration?: DynamicClientRegistrationOptions;
  /** Client ID Metadata Documents (SVC_CIMD_*). */
  clientIdMetadataDocuments?: ClientIdMetadataDocumentOptions;
  /** OpenID / social provider connections configured in code. */
  oidc?: { connections?: OidcConnectionSeedOptions[] };
  /** SCIM 2.0 directory sync: connections configured in code. */
  scim?: { connections?: ScimConnectionSeedOptions[] };
  /**
   * Where the SCIM 2.0 routes are, under the dashboard base; identity providers are given the Base URL
   * PublicOrigin + this path. Its first segment must not be one Svc uses itself (`auth`, `admin`, `api`,
   * a console page…). @default `<dashboardBase>/scim/v2` ('/svc/scim/v2') (SVC_SCIM_BASE_PATH)
   */
  scimBasePath?: string;
  /** Scope display names set in code, shown at consent; checked at start. @default [] (no variable) */
  scopeDisplayNames?: ScopeDisplayNameOptions[];
  /** Injected time source. @default the system clock */
  clock?: Clock;
  /** Injected id and secret generator. @default crypto-random */
  ids?: Ids;
}

import type { BlockList } from 'node:net';
import { isAbsolute, resolve as resolvePath } from 'node:path';
import { SvcConfigError } from '../kernel/errors.js';
import { systemClock, type Clock } from '../kernel/clock.js';
import { randomIds, type Ids } from '../kernel/ids.js';
import {
  DEFAULT_SECURITY_SETTINGS,
  securitySettingsIssues,
  type SecuritySettings,
} from '../settings/security-settings.js';
import type { SsoMetadataFetchOptions, SvcOptions } from './options.js';
import { DEFAULT_METADATA_FETCH_TIMEOUT_MS } from '../federation/saml/metadata-fetch.js';
import { networksSetting, resolveProviderFetch, type ProviderFetchConfig } from './fetch-networks.js';
import { resolveAdminToken } from './admin-token.js';
import { positiveMs } from './durations.js';
import { resolveLogging, type LoggingConfig } from './logging.js';
import { resolveFailureRules, type FailureRules } from '../ratelimit/failure-rules.js';
import { resolveRateLimitRules, type RateLimitRules } from '../ratelimit/rules.js';
import { resolveSmsConfig, type SmsConfig } from '../sms/sms-config.js';
import {
  resolveDnsConfig,
  resolveDomainVerificationConfig,
  type DomainVerificationConfig,
} from '../organizations/domains/domain-verification-config.js';
import type { DnsSettings } from '../organizations/domains/txt-lookup.js';
import { resolveScimConfig, type ScimConfig } from './scim.js';
import { resolveOidcConnectionSeeds } from './oidc-connections.js';
import type { OidcConnectionSeed } from '../federation/oidc/connection-seeds.js';
import { resolveScopeDisplayNames } from './scope-display-names.js';
import type { CodeScopeDisplayName } from '../oauth/scope-display-names/scope-display-names.js';
import {
  resolveClientIdMetadataDocuments,
  resolveDynamicClientRegistration,
} from './dynamic-registration.js';
import type {
  ClientIdMetadataDocumentConfig,
  DynamicClientRegistrationConfig,
} from '../oauth/clients/self-described-clients.js';
import {
  DEFAULT_PASSWORD_HASH_COST,
  passwordHashCostIssue,
  type PasswordHashCost,
} from '../directory/password-hash-cost.js';

export type DatabaseTarget =
  | { readonly kind: 'sqlite'; readonly filename: string; readonly url: string }
  | { readonly kind: 'postgres'; readonly connectionString: string; readonly url: string };

/** Fail-fast limits on waiting for the database (SvcOptions.databaseTimeouts), in milliseconds. */
export interface DatabaseTimeouts {
  readonly connectMs: number;
  readonly statementMs: number;
  readonly idleInTransactionMs: number;
}

export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = {
  connectMs: 3_000,
  statementMs: 5_000,
  idleInTransactionMs: 10_000,
};

/** Everything createSvc() needs, validated once at start. */
export interface SvcConfig extends LoggingConfig {
  readonly port: number;
  readonly host: string;
  readonly publicOrigin: string;
  readonly issuer: string;
  readonly dashboardBase: string;
  readonly authBase: string;
  readonly adminAuthBase: string;
  readonly adminAuditBase: string;
  readonly database: DatabaseTarget;
  readonly databaseTimeouts: DatabaseTimeouts;
  /** How long a node trusts the signing keys it read before reading them again. */
  readonly signingKeyCacheMs: number;
  readonly dataDir: string;
  readonly adminToken: string | undefined;
  readonly secretKey: string | undefined;
  readonly smtpUrl: string | undefined;
  /** From header of every email (SVC_EMAIL_FROM). */
  readonly emailFrom: string;
  /** SMS verification provider of phone OTP; null = not configured (phone OTP off). */
  readonly sms: SmsConfig | null;
  readonly seedDemo: boolean;
  readonly migrateOnStart: boolean;
  readonly keyRotationSchedule: boolean;
  readonly openId: {
    readonly enabled: boolean;
    readonly publishDiscoveryDocument: boolean;
    readonly enableUserInfoEndpoint: boolean;
  };
  readonly securityDefaults: SecuritySettings;
  /** The argon2id cost of new password hashes. */
  readonly passwordHashing: PasswordHashCost;
  /** Rate limits: the defaults with the `rateLimits` option merged over them. */
  readonly rateLimits: RateLimitRules;
  /** Limits on guessing secrets: the defaults with the `failureLimits` option merged over them. */
  readonly failureLimits: FailureRules;
  /** The headless sign-in API (docs/reference/sign-in.md). */
  readonly headless: {
    readonly enabled: boolean;
    /** Absolute, under the auth base. */
    readonly basePath: string;
    /** Exact origins allowed credentialed CORS. */
    readonly allowedOrigins: readonly string[];
    /** The app-owned sign-in UI /authorize sends browsers to; null: the hosted pages. */
    readonly uiUrl: string | null;
  };
  readonly development: boolean;
  /** Provider endpoints on loopback are reached, plain http too (SvcOptions.allowInsecureLoopback). */
  readonly allowInsecureLoopback: boolean;
  /** Requests to providers (SvcOptions.providerFetch), validated. */
  readonly providerFetch: ProviderFetchConfig;
  readonly calendar: { readonly enabled: boolean };
  /** Domain claims: the TXT record's prefixes and the re-check schedule. */
  readonly domainVerification: DomainVerificationConfig;
  /** The resolvers of DNS look-ups (null servers: the system's). */
  readonly dns: DnsSettings;
  /** OpenID / social provider connections seeded from code (written at start). */
  readonly oidc: { readonly connections: readonly OidcConnectionSeed[] };
  /** SCIM 2.0: the service provider's Base URL and the connections seeded from code. */
  readonly scim: ScimConfig;
  /** The code-owned scope display names (SvcOptions.scopeDisplayNames), checked. */
  readonly scopeDisplayNames: readonly CodeScopeDisplayName[];
  /** Dynamic client registration (`POST /register`). */
  readonly dynamicClientRegistration: DynamicClientRegistrationConfig;
  readonly clientIdMetadataDocuments: ClientIdMetadataDocumentConfig;
  /** The setup portal's metadata fetch (SvcOptions.ssoMetadataFetch), validated. */
  readonly ssoMetadataFetch: SsoMetadataFetchConfig;
  /** Fastify's trustProxy for the standalone server (see SvcOptions.trustProxy). */
  readonly trustProxy: boolean | number | readonly string[];
  readonly clock: Clock;
  readonly ids: Ids;
}

/** Merges options over environment-derived options and validates; errors say what to fix. */
export function resolveConfig(options: SvcOptions, nodeEnv = process.env.NODE_ENV): SvcConfig {
  const development = options.development ?? nodeEnv !== 'production';
  const port = options.port ?? 8080;
  const dashboardBase = normalizeBasePath(options.dashboardBase ?? '/svc');
  const authBase = `${dashboardBase}/auth`;
  const publicOrigin = resolvePublicOrigin(options.publicOrigin ?? `http://localhost:${port}`);
  const issuer = resolveIssuer(options.issuer ?? `${publicOrigin}${authBase}`, authBase);
  const dataDir = resolvePath(options.dataDir ?? './data');
  const securityDefaults: SecuritySettings = {
    ...DEFAULT_SECURITY_SETTINGS,
    ...definedOnly(options.security ?? {}),
  };
  const issues = securitySettingsIssues(securityDefaults);
  if (issues.length > 0) {
    throw new SvcConfigError(`Invalid security settings: ${issues.map((i) => i.message).join(' ')}`);
  }
  const passwordHashing = { ...DEFAULT_PASSWORD_HASH_COST, ...definedOnly(options.passwordHashing ?? {}) };
  const hashingIssue = passwordHashCostIssue(passwordHashing, development);
  if (hashingIssue !== undefined) throw new SvcConfigError(hashingIssue);
  return {
    port,
    host: options.host ?? '127.0.0.1',
    publicOrigin,
    issuer,
    dashboardBase,
    authBase,
    adminAuthBase: `${dashboardBase}/admin/auth`,
    adminAuditBase: `${dashboardBase}/admin/audit`,
    database: resolveDatabase(options.databaseUrl ?? 'sqlite:./data/svc.db'),
    databaseTimeouts: resolveDatabaseTimeouts(options.databaseTimeouts ?? {}),
    signingKeyCacheMs: positiveMs('signingKeyCacheMs', options.signingKeyCacheMs ?? 30_000),
    dataDir,
    adminToken: resolveAdminToken(options.adminToken),
    secretKey: options.secretKey,
    smtpUrl: options.smtpUrl,
    emailFrom: options.emailFrom ?? 'Svc <no-reply@localhost>',
    sms: resolveSmsConfig(options.sms),
    seedDemo: options.seedDemo ?? false,
    migrateOnStart: options.migrateOnStart ?? true,
    keyRotationSchedule: options.keyRotationSchedule ?? true,
    openId: {
      enabled: options.openId?.enabled ?? true,
      publishDiscoveryDocument: options.openId?.publishDiscoveryDocument ?? true,
      enableUserInfoEndpoint: options.openId?.enableUserInfoEndpoint ?? true,
    },
    securityDefaults,
    passwordHashing,
    rateLimits: resolveRateLimitRules(options.rateLimits),
    failureLimits: resolveFailureRules(options.failureLimits),
    ...resolveLogging(options, development),
    headless: {
      enabled: options.enableApi ?? true,
      basePath: resolveHeadlessBasePath(options.headlessApiBasePath, authBase),
      allowedOrigins: (options.headlessAllowedOrigins ?? []).map(resolveAllowedOrigin),
      uiUrl: resolveHeadlessUiUrl(options.headlessUiUrl, options.enableApi ?? true),
    },
    development,
    // Never by development mode: a hostile provider's discovery document could name this machine.
    allowInsecureLoopback: options.allowInsecureLoopback ?? false,
    providerFetch: resolveProviderFetch(options.providerFetch ?? {}),
    calendar: { enabled: options.calendar?.enabled ?? true },
    domainVerification: resolveDomainVerificationConfig(options.domainVerification),
    dns: resolveDnsConfig(options.dns),
    oidc: { connections: resolveOidcConnectionSeeds(options.oidc) },
    scim: resolveScimConfig(options.scim, options.scimBasePath, { publicOrigin, dashboardBase }),
    scopeDisplayNames: resolveScopeDisplayNames(options.scopeDisplayNames),
    dynamicClientRegistration: resolveDynamicClientRegistration(options.dynamicClientRegistration, issuer),
    clientIdMetadataDocuments: resolveClientIdMetadataDocuments(options.clientIdMetadataDocuments, issuer),
    ssoMetadataFetch: resolveSsoMetadataFetch(options.ssoMetadataFetch ?? {}),
    trustProxy: options.trustProxy ?? false,
    clock: options.clock ?? systemClock,
    ids: options.ids ?? randomIds,
  };
}

function resolveDatabaseTimeouts(options: NonNullable<SvcOptions['databaseTimeouts']>): DatabaseTimeouts {
  return {
    connectMs: positiveMs(
      'databaseTimeouts.connectMs',
      options.connectMs ?? DEFAULT_DATABASE_TIMEOUTS.connectMs,
    ),
    statementMs: positiveMs(
      'databaseTimeouts.statementMs',
      options.statementMs ?? DEFAULT_DATABASE_TIMEOUTS.statementMs,
    ),
    idleInTransactionMs: positiveMs(
      'databaseTimeouts.idleInTransactionMs',
      options.idleInTransactionMs ?? DEFAULT_DATABASE_TIMEOUTS.idleInTransactionMs,
    ),
  };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function normalizeBasePath(value: string): string {
  const trimmed = value.trim().replace(/\/+$/, '');
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(trimmed)) {
    throw new SvcConfigError(
      `SVC_DASHBOARD_BASE must be a path such as "/svc" (leading slash, no trailing slash, no query), got "${value}".`,
    );
  }
  return trimmed;
}

/** The headless base must sit under the auth base: the issuer session cookie is scoped to that Path. */
function resolveHeadlessBasePath(value: string | undefined, authBase: string): string {
  const path = (value ?? `${authBase}/headless`).trim().replace(/\/+$/, '');
  if (!path.startsWith(`${authBase}/`) || !/^(\/[A-Za-z0-9._~-]+)+$/.test(path)) {
    throw new SvcConfigError(
      `headlessApiBasePath must be a path under the auth base such as "${authBase}/headless", got "${value}".`,
    );
  }
  return path;
}

/** The app-owned UI: an absolute https URL (http on loopback only) without credentials or fragment. */
function resolveHeadlessUiUrl(value: string | undefined, apiEnabled: boolean): string | null {
  if (value === undefined) return null;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  const loopback = url !== undefined && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (
    url === undefined ||
    !(url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) ||
    url.username !== '' ||
    url.password !== '' ||
    url.hash !== ''
  ) {
    throw new SvcConfigError(
      `headlessUiUrl must be an absolute https URL such as https://app.example.com/sign-in (http only on loopback, no user info or fragment), got "${value}".`,
    );
  }
  if (!apiEnabled) {
    throw new SvcConfigError('headlessUiUrl needs the headless API: remove it or set enableApi to true.');
  }
  return url.href;
}

/** An allowed CORS origin: an http(s) origin exactly as browsers send it in the Origin header. */
function resolveAllowedOrigin(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== value) {
    throw new SvcConfigError(
      `headlessAllowedOrigins entries must be origins such as https://app.example.com (no path or trailing slash), got "${value}".`,
    );
  }
  return value;
}

function resolvePublicOrigin(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SvcConfigError(
      `SVC_PUBLIC_ORIGIN must be an absolute URL such as https://id.example.com, got "${value}".`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new SvcConfigError(`SVC_PUBLIC_ORIGIN must use http or https, got "${value}".`);
  }
  if (
    url.pathname !== '/' ||
    url.search !== '' ||
    url.hash !== '' ||
    url.username !== '' ||
    url.password !== ''
  ) {
    throw new SvcConfigError(
      `SVC_PUBLIC_ORIGIN must be an origin only (scheme, host and port; no path, query or user info), got "${value}".`,
    );
  }
  return url.origin;
}

function resolveIssuer(value: string, authBase: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SvcConfigError(
      `The issuer must be an absolute URI such as https://id.example.com${authBase}, got "${value}".`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new SvcConfigError(`The issuer must be an http or https URI, got "${value}".`);
  }
  if (url.pathname !== authBase || url.search !== '' || url.hash !== '') {
    throw new SvcConfigError(
      `The issuer's path must equal the auth base "${authBase}" (no query or fragment), got "${value}". ` +
        'Set SVC_DASHBOARD_BASE to move the auth base, or fix the issuer.',
    );
  }
  return `${url.origin}${authBase}`;
}

function resolveDatabase(url: string): DatabaseTarget {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    if (path === '')
      throw new SvcConfigError(
        'SVC_DATABASE_URL "sqlite:" needs a path, e.g. sqlite:./data/svc.db or sqlite::memory:.',
      );
    return {
      kind: 'sqlite',
      filename: path === ':memory:' ? ':memory:' : isAbsolute(path) ? path : resolvePath(path),
      url,
    };
  }
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    try {
      new URL(url);
    } catch {
      throw new SvcConfigError('SVC_DATABASE_URL is not a valid postgres:// URL.');
    }
    return { kind: 'postgres', connectionString: url, url };
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1] ?? '(none)';
  throw new SvcConfigError(
    `SVC_DATABASE_URL has an unknown scheme "${scheme}": use sqlite:<path>, sqlite::memory: or postgres://user:password@host:5432/db.`,
  );
}

/** The setup portal's metadata fetch: the networks it may reach beyond public addresses, its CAs, its deadline. */
export interface SsoMetadataFetchConfig {
  readonly allowedNetworks: BlockList;
  readonly caCertificates: readonly string[];
  readonly timeoutMs: number;
}

function resolveSsoMetadataFetch(options: SsoMetadataFetchOptions): SsoMetadataFetchConfig {
  return {
    allowedNetworks: networksSetting(
      'SVC_SSO_METADATA_ALLOWED_NETWORKS',
      options.allowedPrivateNetworks ?? [],
    ),
    caCertificates: options.caCertificates ?? [],
    timeoutMs: positiveMs(
      'ssoMetadataFetch.timeoutMs',
      options.timeoutMs ?? DEFAULT_METADATA_FETCH_TIMEOUT_MS,
    ),
  };
}

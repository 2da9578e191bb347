import type {
  DatabaseTimeoutsOptions,
  DomainVerificationOptions,
  ClientIdMetadataDocumentOptions,
  DynamicClientRegistrationOptions,
  SmsOptions,
  SvcOptions,
} from './options.js';
import { SvcConfigError } from '../kernel/errors.js';
import type { RateLimitRulesOptions } from '../ratelimit/rules.js';

/** The one table of SVC_* variables; each maps onto the option of the same meaning. */
export function optionsFromEnv(env: NodeJS.ProcessEnv): SvcOptions {
  const options: SvcOptions = {};
  const text = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const port = text('SVC_PORT');
  if (port !== undefined) options.port = parsePort(port);
  assign(options, 'host', text('SVC_HOST'));
  assign(options, 'publicOrigin', text('SVC_PUBLIC_ORIGIN'));
  assign(options, 'dashboardBase', text('SVC_DASHBOARD_BASE'));
  assign(options, 'databaseUrl', text('SVC_DATABASE_URL'));
  assign(options, 'dataDir', text('SVC_DATA_DIR'));
  assign(options, 'adminToken', text('SVC_ADMIN_TOKEN'));
  assign(options, 'secretKey', text('SVC_SECRET_KEY'));
  assign(options, 'smtpUrl', text('SVC_SMTP_URL'));
  assign(options, 'emailFrom', text('SVC_EMAIL_FROM'));
  const sms = smsFromEnv(text);
  if (sms !== undefined) options.sms = sms;
  assign(options, 'headlessApiBasePath', text('SVC_HEADLESS_API_BASE_PATH'));
  assign(options, 'scimBasePath', text('SVC_SCIM_BASE_PATH'));
  assign(options, 'headlessUiUrl', text('SVC_HEADLESS_UI_URL'));
  const headlessOrigins = text('SVC_HEADLESS_ALLOWED_ORIGINS');
  if (headlessOrigins !== undefined) {
    options.headlessAllowedOrigins = headlessOrigins
      .split(',')
      .map((origin) => origin.trim())
      .filter((origin) => origin !== '');
  }
  const trustProxy = text('SVC_TRUST_PROXY');
  if (trustProxy !== undefined) options.trustProxy = parseTrustProxy(trustProxy);
  const enableApi = text('SVC_ENABLE_API');
  if (enableApi !== undefined) options.enableApi = parseFlag('SVC_ENABLE_API', enableApi);
  const insecureLoopback = text('SVC_ALLOW_INSECURE_LOOPBACK');
  if (insecureLoopback !== undefined)
    options.allowInsecureLoopback = parseFlag('SVC_ALLOW_INSECURE_LOOPBACK', insecureLoopback);
  const calendar = text('SVC_CALENDAR_ENABLED');
  if (calendar !== undefined) options.calendar = { enabled: parseFlag('SVC_CALENDAR_ENABLED', calendar) };
  const dnsServers = text('SVC_DNS_SERVERS');
  const dnsTimeout = text('SVC_DNS_TIMEOUT_MS');
  if (dnsServers !== undefined || dnsTimeout !== undefined) {
    options.dns = {
      ...(dnsServers === undefined ? {} : { servers: listOf(dnsServers) }),
      ...(dnsTimeout === undefined ? {} : { timeoutMs: parseMs('SVC_DNS_TIMEOUT_MS', dnsTimeout) }),
    };
  }
  const providerNetworks = text('SVC_PROVIDER_ALLOWED_NETWORKS');
  if (providerNetworks !== undefined) {
    options.providerFetch = { allowedPrivateNetworks: listOf(providerNetworks) };
  }
  const metadataNetworks = text('SVC_SSO_METADATA_ALLOWED_NETWORKS');
  if (metadataNetworks !== undefined) {
    options.ssoMetadataFetch = {
      allowedPrivateNetworks: listOf(metadataNetworks),
    };
  }
  const dcr = dynamicClientRegistrationFromEnv(text);
  if (dcr !== undefined) options.dynamicClientRegistration = dcr;
  const cimd = clientIdMetadataDocumentsFromEnv(text);
  if (cimd !== undefined) options.clientIdMetadataDocuments = cimd;
  const domainVerification = domainVerificationFromEnv(text);
  if (domainVerification !== undefined) options.domainVerification = domainVerification;
  const seed = seedDemoFromEnv(env);
  if (seed !== undefined) options.seedDemo = seed;
  const timeouts: DatabaseTimeoutsOptions = {};
  for (const [key, name] of TIMEOUT_VARIABLES) {
    const value = text(name);
    if (value !== undefined) timeouts[key] = parseMs(name, value);
  }
  if (Object.keys(timeouts).length > 0) options.databaseTimeouts = timeouts;
  const keyCache = text('SVC_SIGNING_KEY_CACHE_MS');
  if (keyCache !== undefined) options.signingKeyCacheMs = parseMs('SVC_SIGNING_KEY_CACHE_MS', keyCache);
  const rateLimits = text('SVC_RATE_LIMITS');
  if (rateLimits !== undefined) {
    options.rateLimits = parseJson(
      'SVC_RATE_LIMITS',
      rateLimits,
      '{"otpSend":{"identifier":{"limit":3,"minIntervalMs":60000}}}',
    ) as RateLimitRulesOptions;
  }
  const level = text('SVC_LOG_LEVEL');
  if (level !== undefined) options.logLevel = parseLogLevel(level);
  const accessLog = text('SVC_ACCESS_LOG');
  if (accessLog !== undefined) options.accessLog = parseFlag('SVC_ACCESS_LOG', accessLog);
  const slowRequest = text('SVC_SLOW_REQUEST_MS');
  if (slowRequest !== undefined) options.slowRequestMs = parseMs('SVC_SLOW_REQUEST_MS', slowRequest);
  return options;
}

/** The SVC_SMS_* variables, or undefined when none is set. */
function smsFromEnv(text: (name: string) => string | undefined): SmsOptions | undefined {
  const options: SmsOptions = {};
  for (const [key, name] of SMS_VARIABLES) {
    const value = text(name);
    if (value !== undefined) options[key] = value;
  }
  const allowed = text('SVC_SMS_ALLOWED_COUNTRIES');
  if (allowed !== undefined) options.allowedCountries = listOf(allowed);
  const denied = text('SVC_SMS_DENIED_COUNTRIES');
  if (denied !== undefined) options.deniedCountries = listOf(denied);
  return Object.keys(options).length === 0 ? undefined : options;
}

const SMS_VARIABLES: readonly (readonly [
  'accountId' | 'authToken' | 'verifyServiceId' | 'defaultRegion' | 'apiBaseUrl',
  string,
])[] = [
  ['accountId', 'SVC_SMS_ACCOUNT_ID'],
  ['authToken', 'SVC_SMS_AUTH_TOKEN'],
  ['verifyServiceId', 'SVC_SMS_VERIFY_SERVICE_ID'],
  ['defaultRegion', 'SVC_SMS_DEFAULT_REGION'],
  ['apiBaseUrl', 'SVC_SMS_API_BASE_URL'],
];

/** SVC_SEED_DEMO as given (on or off), or undefined when it is unset or empty. */
export function seedDemoFromEnv(env: NodeJS.ProcessEnv): boolean | undefined {
  const value = env.SVC_SEED_DEMO?.trim();
  return value === undefined || value === '' ? undefined : parseFlag('SVC_SEED_DEMO', value);
}

/** The SVC_DCR_* variables, or undefined when none is set. */
function dynamicClientRegistrationFromEnv(
  text: (name: string) => string | undefined,
): DynamicClientRegistrationOptions | undefined {
  return selfDescribedClientsFromEnv(text, 'SVC_DCR');
}

/** The SVC_CIMD_* variables, or undefined when none is set. */
function clientIdMetadataDocumentsFromEnv(
  text: (name: string) => string | undefined,
): ClientIdMetadataDocumentOptions | undefined {
  const options: ClientIdMetadataDocumentOptions = selfDescribedClientsFromEnv(text, 'SVC_CIMD') ?? {};
  const hosts = text('SVC_CIMD_ALLOWED_HOSTS');
  if (hosts !== undefined) options.allowedHosts = listOf(hosts);
  const loopback = text('SVC_CIMD_ALLOW_LOOPBACK');
  if (loopback !== undefined) options.allowLoopback = parseFlag('SVC_CIMD_ALLOW_LOOPBACK', loopback);
  return Object.keys(options).length === 0 ? undefined : options;
}

/** `<prefix>_ENABLED`, `_ALLOWED_SCOPES` and `_AUDIENCE`, or undefined when none is set. */
function selfDescribedClientsFromEnv(
  text: (name: string) => string | undefined,
  prefix: 'SVC_DCR' | 'SVC_CIMD',
): DynamicClientRegistrationOptions | undefined {
  const options: DynamicClientRegistrationOptions = {};
  const enabled = text(`${prefix}_ENABLED`);
  if (enabled !== undefined) options.enabled = parseFlag(`${prefix}_ENABLED`, enabled);
  const scopes = text(`${prefix}_ALLOWED_SCOPES`);
  if (scopes !== undefined) options.allowedScopes = listOf(scopes);
  const audience = text(`${prefix}_AUDIENCE`);
  if (audience !== undefined) options.audience = audience;
  return Object.keys(options).length === 0 ? undefined : options;
}

/** A list given with spaces or commas between its entries. */
function listOf(value: string): string[] {
  return value.split(/[\s,]+/).filter((entry) => entry !== '');
}

/** The SVC_DOMAIN_* variables, or undefined when none is set. */
function domainVerificationFromEnv(
  text: (name: string) => string | undefined,
): DomainVerificationOptions | undefined {
  const options: DomainVerificationOptions = {};
  const recordPrefix = text('SVC_DOMAIN_VERIFICATION_RECORD_PREFIX');
  if (recordPrefix !== undefined) options.recordPrefix = recordPrefix;
  const valuePrefix = text('SVC_DOMAIN_VERIFICATION_VALUE_PREFIX');
  if (valuePrefix !== undefined) options.valuePrefix = valuePrefix;
  const interval = text('SVC_DOMAIN_RECHECK_INTERVAL_MS');
  if (interval !== undefined) options.recheckIntervalMs = parseMs('SVC_DOMAIN_RECHECK_INTERVAL_MS', interval);
  const failures = text('SVC_DOMAIN_REVOKE_AFTER_FAILED_CHECKS');
  if (failures !== undefined) {
    options.revokeAfterFailedChecks = parseCount('SVC_DOMAIN_REVOKE_AFTER_FAILED_CHECKS', failures);
  }
  return Object.keys(options).length === 0 ? undefined : options;
}

function assign<K extends keyof SvcOptions>(
  options: SvcOptions,
  key: K,
  value: SvcOptions[K] | undefined,
): void {
  if (value !== undefined) options[key] = value;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new SvcConfigError(`SVC_PORT must be a port number between 0 and 65535, got "${value}".`);
  }
  return port;
}

/** SVC_TRUST_PROXY: true/false, a hop count, or comma-separated addresses and CIDR ranges. */
function parseTrustProxy(value: string): boolean | number | string[] {
  if (/^\d+$/.test(value)) return Number(value);
  if (['1', 'true', 'yes', 'on', '0', 'false', 'no', 'off'].includes(value.toLowerCase())) {
    return parseFlag('SVC_TRUST_PROXY', value);
  }
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0 || entries.some((entry) => !/^[0-9A-Fa-f.:]+(\/\d{1,3})?$/.test(entry))) {
    throw new SvcConfigError(
      `SVC_TRUST_PROXY must be true, false, a hop count or comma-separated addresses such as 10.0.0.0/8, got "${value}".`,
    );
  }
  return entries;
}

const TIMEOUT_VARIABLES: readonly (readonly [keyof DatabaseTimeoutsOptions, string])[] = [
  ['connectMs', 'SVC_DB_CONNECT_TIMEOUT_MS'],
  ['statementMs', 'SVC_DB_STATEMENT_TIMEOUT_MS'],
  ['idleInTransactionMs', 'SVC_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS'],
];

function parseMs(name: string, value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) {
    throw new SvcConfigError(`${name} must be a whole number of milliseconds of at least 1, got "${value}".`);
  }
  return Number(value);
}

/** A variable that holds an option's JSON; the option's own resolution checks what is inside. */
function parseJson(name: string, value: string, example: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw new SvcConfigError(`${name} must be JSON such as ${example}, got "${value}".`);
  }
}

function parseCount(name: string, value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) {
    throw new SvcConfigError(`${name} must be a whole number of at least 1, got "${value}".`);
  }
  return Number(value);
}

function parseFlag(name: string, value: string): boolean {
  if (['1', 'true', 'yes', 'on'].includes(value.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(value.toLowerCase())) return false;
  throw new SvcConfigError(`${name} must be 1/true/on or 0/false/off, got "${value}".`);
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

function parseLogLevel(value: string): NonNullable<SvcOptions['logLevel']> {
  if (value === 'silent' || value === 'off') return false;
  const level = LEVELS.find((l) => l === value);
  if (level === undefined) {
    throw new SvcConfigError(`SVC_LOG_LEVEL must be one of ${LEVELS.join(', ')} or off, got "${value}".`);
  }
  return level;
}

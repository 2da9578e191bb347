import { describe, expect, it } from 'vitest';
import { SvcConfigError } from '../kernel/errors.js';
import { optionsFromEnv } from './env.js';
import { resolveConfig } from './resolve.js';

describe('configuration', () => {
  it('defaults to the documented issuer, database and paths', () => {
    const config = resolveConfig({});
    expect(config.issuer).toBe('http://localhost:8080/svc/auth');
    expect(config.authBase).toBe('/svc/auth');
    expect(config.adminAuthBase).toBe('/svc/admin/auth');
    expect(config.database.kind).toBe('sqlite');
    expect(config.database.kind === 'sqlite' && config.database.filename.endsWith('/data/svc.db')).toBe(true);
    expect(config.host).toBe('127.0.0.1');
    expect(config.securityDefaults.refreshTokenGraceWindowSeconds).toBe(30);
  });

  it('puts SCIM at scimBasePath (SVC_SCIM_BASE_PATH) under the dashboard base, default /svc/scim/v2', () => {
    expect(resolveConfig({}).scim).toMatchObject({
      basePath: '/svc/scim/v2',
      baseUrl: 'http://localhost:8080/svc/scim/v2',
    });
    const moved = resolveConfig({
      publicOrigin: 'https://id.example.com',
      dashboardBase: '/identity',
      scimBasePath: '/identity/directory/v2/',
    });
    expect(moved.scim).toMatchObject({
      basePath: '/identity/directory/v2',
      baseUrl: 'https://id.example.com/identity/directory/v2',
    });
    expect(resolveConfig(optionsFromEnv({ SVC_SCIM_BASE_PATH: '/svc/scim' })).scim.basePath).toBe(
      '/svc/scim',
    );
    for (const [scimBasePath, message] of [
      ['/scim/v2', /must be a path under the dashboard base such as "\/svc\/scim\/v2"/],
      ['/svc', /must be a path under the dashboard base/],
      ['/svc/scim?x=1', /must be a path under the dashboard base/],
      ['/svc/admin/scim', /must not lie under "\/svc\/admin", which Svc serves itself/],
      ['/svc/auth/scim', /must not lie under "\/svc\/auth"/],
      ['/svc/users', /must not lie under "\/svc\/users"/],
    ] as const) {
      expect(() => resolveConfig({ scimBasePath }), scimBasePath).toThrow(SvcConfigError);
      expect(() => resolveConfig({ scimBasePath }), scimBasePath).toThrow(message);
    }
  });

  it('derives the issuer from the public origin and the dashboard base', () => {
    const config = resolveConfig({ publicOrigin: 'https://id.example.com/', dashboardBase: '/identity/' });
    expect(config.issuer).toBe('https://id.example.com/identity/auth');
    expect(config.authBase).toBe('/identity/auth');
  });

  it.each([
    [{ issuer: 'id.example.com/svc/auth' }, /must be an absolute URI/],
    [{ issuer: 'https://id.example.com/other' }, /path must equal the auth base "\/svc\/auth"/],
    [{ issuer: 'ftp://id.example.com/svc/auth' }, /http or https/],
    [{ publicOrigin: 'https://id.example.com/base' }, /origin only/],
    [{ publicOrigin: 'not a url' }, /absolute URL/],
    [{ dashboardBase: 'svc' }, /SVC_DASHBOARD_BASE must be a path/],
    [{ databaseUrl: 'mysql://localhost/db' }, /unknown scheme "mysql".*sqlite:<path>.*postgres:\/\//],
    [{ databaseUrl: 'sqlite:' }, /needs a path/],
    [
      { security: { signingKeyRotationIntervalDays: 7, signingKeyGraceWindowDays: 7 } },
      /signingKeyGraceWindowDays must be shorter than signingKeyRotationIntervalDays/,
    ],
    [{ adminToken: 'short' }, /SVC_ADMIN_TOKEN is too weak/],
  ])('refuses %j with a message that says what to fix', (options, message) => {
    expect(() => resolveConfig(options)).toThrow(SvcConfigError);
    expect(() => resolveConfig(options)).toThrow(message);
  });

  it('accepts an explicit issuer whose path is the auth base', () => {
    expect(resolveConfig({ issuer: 'https://login.example.com/svc/auth' }).issuer).toBe(
      'https://login.example.com/svc/auth',
    );
  });

  it('reads the SVC_* environment and rejects malformed values', () => {
    expect(
      optionsFromEnv({
        SVC_PORT: '9090',
        SVC_HOST: '0.0.0.0',
        SVC_SEED_DEMO: 'on',
        SVC_DATABASE_URL: 'sqlite::memory:',
        SVC_LOG_LEVEL: 'off',
      }),
    ).toEqual({
      port: 9090,
      host: '0.0.0.0',
      seedDemo: true,
      databaseUrl: 'sqlite::memory:',
      logLevel: false,
    });
    expect(
      optionsFromEnv({
        SVC_ENABLE_API: 'off',
        SVC_HEADLESS_API_BASE_PATH: '/svc/auth/custom-ui',
        SVC_HEADLESS_ALLOWED_ORIGINS: 'https://app.example.com, https://admin.example.com,',
      }),
    ).toEqual({
      enableApi: false,
      headlessApiBasePath: '/svc/auth/custom-ui',
      headlessAllowedOrigins: ['https://app.example.com', 'https://admin.example.com'],
    });
    expect(optionsFromEnv({ SVC_TRUST_PROXY: '2' })).toEqual({ trustProxy: 2 });
    expect(optionsFromEnv({ SVC_ALLOW_INSECURE_LOOPBACK: '1', SVC_CALENDAR_ENABLED: 'off' })).toEqual({
      allowInsecureLoopback: true,
      calendar: { enabled: false },
    });
    expect(resolveConfig({}, 'production')).toMatchObject({
      allowInsecureLoopback: false,
      calendar: { enabled: true },
    });
    // Only the operator's explicit setting lets Svc call a provider on this machine, never development mode.
    expect(resolveConfig({ development: true }).allowInsecureLoopback).toBe(false);
    expect(resolveConfig({}, 'development').allowInsecureLoopback).toBe(false);
    expect(resolveConfig({ development: true, allowInsecureLoopback: true }).allowInsecureLoopback).toBe(
      true,
    );
    expect(() => optionsFromEnv({ SVC_ALLOW_INSECURE_LOOPBACK: 'sure' })).toThrow(
      /SVC_ALLOW_INSECURE_LOOPBACK must be/,
    );
    expect(optionsFromEnv({ SVC_TRUST_PROXY: 'true' })).toEqual({ trustProxy: true });
    expect(optionsFromEnv({ SVC_TRUST_PROXY: '10.0.0.0/8, 192.168.1.5' })).toEqual({
      trustProxy: ['10.0.0.0/8', '192.168.1.5'],
    });
    expect(() => optionsFromEnv({ SVC_TRUST_PROXY: 'the balancer' })).toThrow(/SVC_TRUST_PROXY must be/);
    expect(() => optionsFromEnv({ SVC_PORT: 'eighty' })).toThrow(/SVC_PORT must be a port number/);
    expect(() => optionsFromEnv({ SVC_SEED_DEMO: 'maybe' })).toThrow(/SVC_SEED_DEMO must be/);
    expect(() => optionsFromEnv({ SVC_LOG_LEVEL: 'loud' })).toThrow(/SVC_LOG_LEVEL must be one of/);
    expect(resolveConfig(optionsFromEnv({ SVC_PUBLIC_ORIGIN: 'https://id.example.com' })).issuer).toBe(
      'https://id.example.com/svc/auth',
    );
  });

  it('reads the fail-fast database timeouts and the key cache lifetime, with defaults of a few seconds', () => {
    expect(resolveConfig({}).databaseTimeouts).toEqual({
      connectMs: 3_000,
      statementMs: 5_000,
      idleInTransactionMs: 10_000,
    });
    expect(resolveConfig({}).signingKeyCacheMs).toBe(30_000);
    const options = optionsFromEnv({
      SVC_DB_CONNECT_TIMEOUT_MS: '1000',
      SVC_DB_STATEMENT_TIMEOUT_MS: '2000',
      SVC_SIGNING_KEY_CACHE_MS: '1500',
    });
    expect(options).toEqual({
      databaseTimeouts: { connectMs: 1_000, statementMs: 2_000 },
      signingKeyCacheMs: 1_500,
    });
    expect(resolveConfig(options).databaseTimeouts).toEqual({
      connectMs: 1_000,
      statementMs: 2_000,
      idleInTransactionMs: 10_000,
    });
    expect(() => optionsFromEnv({ SVC_DB_STATEMENT_TIMEOUT_MS: '5s' })).toThrow(
      /SVC_DB_STATEMENT_TIMEOUT_MS must be a whole number of milliseconds/,
    );
    expect(() => resolveConfig({ databaseTimeouts: { connectMs: 0 } })).toThrow(SvcConfigError);
  });

  it('reads the domain claims’ record prefixes, re-check schedule and DNS servers, with the default record', () => {
    expect(resolveConfig({})).toMatchObject({
      domainVerification: {
        recordPrefix: '_svc-verify',
        valuePrefix: 'svc-domain-verification',
        recheckIntervalMs: 86_400_000,
        revokeAfterFailedChecks: 3,
      },
      dns: { servers: null, timeoutMs: 5_000 },
    });
    const options = optionsFromEnv({
      SVC_DNS_SERVERS: '10.0.0.2:5353, 192.0.2.53 [2001:db8::53]:53,2001:db8::1',
      SVC_DNS_TIMEOUT_MS: '800',
      SVC_DOMAIN_VERIFICATION_RECORD_PREFIX: '_acme-challenge.id',
      SVC_DOMAIN_VERIFICATION_VALUE_PREFIX: 'acme-verify',
      SVC_DOMAIN_RECHECK_INTERVAL_MS: '3600000',
      SVC_DOMAIN_REVOKE_AFTER_FAILED_CHECKS: '5',
    });
    expect(options).toEqual({
      dns: { servers: ['10.0.0.2:5353', '192.0.2.53', '[2001:db8::53]:53', '2001:db8::1'], timeoutMs: 800 },
      domainVerification: {
        recordPrefix: '_acme-challenge.id',
        valuePrefix: 'acme-verify',
        recheckIntervalMs: 3_600_000,
        revokeAfterFailedChecks: 5,
      },
    });
    expect(resolveConfig(options)).toMatchObject(options);
    expect(() => optionsFromEnv({ SVC_DOMAIN_REVOKE_AFTER_FAILED_CHECKS: '0' })).toThrow(
      /SVC_DOMAIN_REVOKE_AFTER_FAILED_CHECKS must be a whole number of at least 1/,
    );
  });

  it('fetches setup-portal metadata from public addresses only unless networks are listed', () => {
    const defaults = resolveConfig({}).ssoMetadataFetch;
    expect(defaults).toMatchObject({ caCertificates: [], timeoutMs: 5_000 });
    expect(defaults.allowedNetworks.check('10.20.0.1', 'ipv4')).toBe(false);
    const options = optionsFromEnv({ SVC_SSO_METADATA_ALLOWED_NETWORKS: '10.20.0.0/16, fd00::/8' });
    expect(options).toEqual({ ssoMetadataFetch: { allowedPrivateNetworks: ['10.20.0.0/16', 'fd00::/8'] } });
    const { allowedNetworks } = resolveConfig(options).ssoMetadataFetch;
    expect(allowedNetworks.check('10.20.0.1', 'ipv4')).toBe(true);
    expect(allowedNetworks.check('fd00::1', 'ipv6')).toBe(true);
    expect(allowedNetworks.check('10.21.0.1', 'ipv4')).toBe(false);
  });

  it('calls providers at public addresses only unless networks are listed', () => {
    const defaults = resolveConfig({ development: true }).providerFetch;
    expect(defaults.caCertificates).toEqual([]);
    expect(defaults.allowedNetworks.check('10.20.0.1', 'ipv4')).toBe(false);
    expect(defaults.allowedNetworks.check('127.0.0.1', 'ipv4')).toBe(false);
    const options = optionsFromEnv({ SVC_PROVIDER_ALLOWED_NETWORKS: '10.20.0.0/16, fd00::/8' });
    expect(options).toEqual({ providerFetch: { allowedPrivateNetworks: ['10.20.0.0/16', 'fd00::/8'] } });
    const { allowedNetworks } = resolveConfig(options).providerFetch;
    expect(allowedNetworks.check('10.20.0.1', 'ipv4')).toBe(true);
    expect(allowedNetworks.check('fd00::1', 'ipv6')).toBe(true);
    expect(allowedNetworks.check('10.21.0.1', 'ipv4')).toBe(false);
  });

  it.each([
    [
      { providerFetch: { allowedPrivateNetworks: ['10.0.0.0/8', 'idp.corp'] } },
      /SVC_PROVIDER_ALLOWED_NETWORKS entries must be IP addresses or CIDR ranges .* 'idp.corp'/,
    ],
    [
      { ssoMetadataFetch: { allowedPrivateNetworks: ['idp.internal'] } },
      /SVC_SSO_METADATA_ALLOWED_NETWORKS entries must be IP addresses or CIDR ranges .* 'idp.internal'/,
    ],
    [{ ssoMetadataFetch: { timeoutMs: 0 } }, /ssoMetadataFetch.timeoutMs must be a whole number/],
    [{ dns: { servers: ['dns.example.com'] } }, /SVC_DNS_SERVERS entries must be IP addresses/],
    [{ dns: { servers: ['10.0.0.2:99999'] } }, /SVC_DNS_SERVERS entries/],
    [{ dns: { servers: ['[10.0.0.2]:53'] } }, /SVC_DNS_SERVERS entries/],
    [{ dns: { servers: [] } }, /SVC_DNS_SERVERS must name at least one server/],
    [{ dns: { timeoutMs: 0 } }, /SVC_DNS_TIMEOUT_MS must be a whole number/],
    [{ domainVerification: { recordPrefix: 'has space' } }, /SVC_DOMAIN_VERIFICATION_RECORD_PREFIX must be/],
    [{ domainVerification: { recordPrefix: '-x' } }, /SVC_DOMAIN_VERIFICATION_RECORD_PREFIX must be/],
    [{ domainVerification: { valuePrefix: 'a=b' } }, /SVC_DOMAIN_VERIFICATION_VALUE_PREFIX must be/],
    [{ domainVerification: { valuePrefix: '' } }, /SVC_DOMAIN_VERIFICATION_VALUE_PREFIX must be/],
    [{ domainVerification: { recheckIntervalMs: 1_000 } }, /SVC_DOMAIN_RECHECK_INTERVAL_MS must be/],
    [{ domainVerification: { revokeAfterFailedChecks: 0 } }, /SVC_DOMAIN_REVOKE_AFTER_FAILED_CHECKS/],
  ])('refuses %j', (options, message) => {
    expect(() => resolveConfig(options)).toThrow(SvcConfigError);
    expect(() => resolveConfig(options)).toThrow(message);
  });

  it('logs no request by default: the access log is asked for, slow requests have a threshold', () => {
    const logging = (config: ReturnType<typeof resolveConfig>) => ({
      logLevel: config.logLevel,
      accessLog: config.accessLog,
      slowRequestMs: config.slowRequestMs,
    });
    expect(logging(resolveConfig({}, 'production'))).toEqual({
      logLevel: 'info',
      accessLog: false,
      slowRequestMs: 1000,
    });
    expect(resolveConfig({}, 'development').logLevel).toBe('warn');
    const options = optionsFromEnv({ SVC_ACCESS_LOG: 'on', SVC_SLOW_REQUEST_MS: '250' });
    expect(options).toEqual({ accessLog: true, slowRequestMs: 250 });
    // Asking for the access log makes info the default level in development too (its lines are at info).
    expect(logging(resolveConfig(options, 'development'))).toEqual({
      logLevel: 'info',
      accessLog: true,
      slowRequestMs: 250,
    });
    expect(resolveConfig({ accessLog: true, logLevel: 'debug' }).logLevel).toBe('debug');
    expect(() => resolveConfig({ accessLog: true, logLevel: 'warn' })).toThrow(
      /SVC_ACCESS_LOG writes its lines at info, which SVC_LOG_LEVEL=warn hides/,
    );
    expect(() => resolveConfig({ accessLog: true, logLevel: false })).toThrow(/SVC_LOG_LEVEL=off hides/);
    expect(() => optionsFromEnv({ SVC_ACCESS_LOG: 'verbose' })).toThrow(/SVC_ACCESS_LOG must be/);
    expect(() => optionsFromEnv({ SVC_SLOW_REQUEST_MS: '1s' })).toThrow(
      /SVC_SLOW_REQUEST_MS must be a whole number of milliseconds/,
    );
    expect(() => resolveConfig({ slowRequestMs: 0 })).toThrow(/slowRequestMs must be a whole number/);
  });
});

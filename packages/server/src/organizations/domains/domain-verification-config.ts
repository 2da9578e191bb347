import { isIP } from 'node:net';
import type { DnsOptions, DomainVerificationOptions } from '../../config/options.js';
import { DAY_MS, MINUTE_MS } from '../../kernel/clock.js';
import { SvcConfigError } from '../../kernel/errors.js';
import type { OwnershipRecordPrefixes } from './ownership-record.js';
import type { DnsSettings } from './txt-lookup.js';

/** How domain claims are proven and kept (SvcOptions.domainVerification, resolved). */
export interface DomainVerificationConfig extends OwnershipRecordPrefixes {
  /** How long an active claim goes unchecked. */
  readonly recheckIntervalMs: number;
  /** Scheduled re-checks in a row that find no record before the claim is revoked. */
  readonly revokeAfterFailedChecks: number;
}

export const DEFAULT_DOMAIN_VERIFICATION: DomainVerificationConfig = {
  recordPrefix: '_svc-verify',
  valuePrefix: 'svc-domain-verification',
  recheckIntervalMs: DAY_MS,
  revokeAfterFailedChecks: 3,
};

/** The system's resolvers, five seconds a look-up. */
export const DEFAULT_DNS: DnsSettings = { servers: null, timeoutMs: 5_000 };

/** One or more DNS labels (underscores allowed, as in `_dmarc`), for the name in front of the domain. */
const RECORD_PREFIX =
  /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*$/;
/** Printable ASCII without spaces, quotes or `=` (which ends the prefix), short enough to leave room. */
const VALUE_PREFIX = /^[!#-<>-~]{1,64}$/;

/** Validates the options at start; each message names the variable to fix. */
export function resolveDomainVerificationConfig(
  options: DomainVerificationOptions | undefined,
): DomainVerificationConfig {
  const recordPrefix = options?.recordPrefix?.trim() ?? DEFAULT_DOMAIN_VERIFICATION.recordPrefix;
  if (recordPrefix.length > 100 || !RECORD_PREFIX.test(recordPrefix)) {
    throw new SvcConfigError(
      `SVC_DOMAIN_VERIFICATION_RECORD_PREFIX must be a DNS name such as _svc-verify (letters, digits, hyphens and underscores, dot-separated), got "${recordPrefix}".`,
    );
  }
  const valuePrefix = options?.valuePrefix?.trim() ?? DEFAULT_DOMAIN_VERIFICATION.valuePrefix;
  if (!VALUE_PREFIX.test(valuePrefix)) {
    throw new SvcConfigError(
      `SVC_DOMAIN_VERIFICATION_VALUE_PREFIX must be 1 to 64 printable characters without spaces, quotes or "=", such as svc-domain-verification, got "${valuePrefix}".`,
    );
  }
  const recheckIntervalMs = options?.recheckIntervalMs ?? DEFAULT_DOMAIN_VERIFICATION.recheckIntervalMs;
  if (!Number.isInteger(recheckIntervalMs) || recheckIntervalMs < MINUTE_MS) {
    throw new SvcConfigError(
      `SVC_DOMAIN_RECHECK_INTERVAL_MS must be a whole number of milliseconds of at least 60000, got ${recheckIntervalMs}.`,
    );
  }
  const revokeAfterFailedChecks =
    options?.revokeAfterFailedChecks ?? DEFAULT_DOMAIN_VERIFICATION.revokeAfterFailedChecks;
  if (!Number.isInteger(revokeAfterFailedChecks) || revokeAfterFailedChecks < 1) {
    throw new SvcConfigError(
      `SVC_DOMAIN_REVOKE_AFTER_FAILED_CHECKS must be a whole number of at least 1, got ${revokeAfterFailedChecks}.`,
    );
  }
  return { recordPrefix, valuePrefix, recheckIntervalMs, revokeAfterFailedChecks };
}

/** The resolvers of TXT look-ups: the system's unless `servers` names some. */
export function resolveDnsConfig(options: DnsOptions | undefined): DnsSettings {
  const timeoutMs = options?.timeoutMs ?? DEFAULT_DNS.timeoutMs;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) {
    throw new SvcConfigError(
      `SVC_DNS_TIMEOUT_MS must be a whole number of milliseconds of at least 1, got ${timeoutMs}.`,
    );
  }
  const servers = options?.servers;
  if (servers === undefined) return { servers: null, timeoutMs };
  if (servers.length === 0) {
    throw new SvcConfigError('SVC_DNS_SERVERS must name at least one server, such as 127.0.0.1:53.');
  }
  return { servers: servers.map(resolveDnsServer), timeoutMs };
}

/**
 * One resolver as `Resolver.setServers` takes it: an IPv4 address with an optional `:port`, or an IPv6
 * address, bracketed when it has a port (`[::1]:53`). Host names are refused: resolving them would need
 * a resolver first.
 */
function resolveDnsServer(entry: string): string {
  const value = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(value);
  const v4 = /^([0-9.]+)(?::(\d{1,5}))?$/.exec(value);
  const [address, port] = bracketed
    ? [bracketed[1] ?? '', bracketed[2]]
    : v4
      ? [v4[1] ?? '', v4[2]]
      : [value, undefined];
  const family = isIP(address);
  const portOk = port === undefined || (Number(port) >= 1 && Number(port) <= 65535);
  if (family === 0 || !portOk || (family === 4 && bracketed !== null)) {
    throw new SvcConfigError(
      `SVC_DNS_SERVERS entries must be IP addresses with an optional port, such as 10.0.0.2:53 or [2001:db8::53]:53, got "${entry}".`,
    );
  }
  return value;
}

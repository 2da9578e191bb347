import { SvcConfigError } from '../kernel/errors.js';
import { isScopeToken } from '../oauth/scopes.js';
import type {
  ClientIdMetadataDocumentConfig,
  DynamicClientRegistrationConfig,
  SelfDescribedClientPolicy,
} from '../oauth/clients/self-described-clients.js';
import type { ClientIdMetadataDocumentOptions, DynamicClientRegistrationOptions } from './options.js';

/** A registration's scope limits (docs/reference/limits.md): at most 32 scopes of at most 128 characters. */
const DEFAULT_MAX_SCOPE_COUNT = 32;
const DEFAULT_MAX_SCOPE_LENGTH = 128;
const DEFAULT_DOCUMENT_TIMEOUT_MS = 5_000;

/** The defaults over the options; `issuer` is the default audience. Errors name the setting to fix. */
export function resolveDynamicClientRegistration(
  options: DynamicClientRegistrationOptions = {},
  issuer: string,
): DynamicClientRegistrationConfig {
  const policy = resolvePolicy(options, issuer, { prefix: 'SVC_DCR', option: 'dynamicClientRegistration' });
  return { enabled: options.enabled ?? false, ...policy };
}

/** The defaults over the options, as for registrations; host patterns are checked and lower-cased. */
export function resolveClientIdMetadataDocuments(
  options: ClientIdMetadataDocumentOptions = {},
  issuer: string,
): ClientIdMetadataDocumentConfig {
  const policy = resolvePolicy(options, issuer, { prefix: 'SVC_CIMD', option: 'clientIdMetadataDocuments' });
  const allowedHosts = [...new Set((options.allowedHosts ?? []).map((host) => host.trim().toLowerCase()))];
  for (const host of allowedHosts) {
    if (!HOST_PATTERN.test(host)) {
      throw new SvcConfigError(
        `SVC_CIMD_ALLOWED_HOSTS: "${host}" is not a host name; give names such as app.example.com, or *.example.com for its subdomains.`,
      );
    }
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_DOCUMENT_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 100 || timeoutMs > 60_000) {
    throw new SvcConfigError('clientIdMetadataDocuments.timeoutMs must be 100 to 60000 milliseconds.');
  }
  const caCertificates = options.caCertificates ?? [];
  const allowLoopback = options.allowLoopback ?? false;
  return {
    enabled: options.enabled ?? false,
    allowedHosts,
    timeoutMs,
    caCertificates,
    allowLoopback,
    ...policy,
  };
}

/** A DNS name (or an IPv4 address), optionally `*.` before it. */
const HOST_PATTERN =
  /^(?=.{1,253}$)(\*\.)?[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

function resolvePolicy(
  options: DynamicClientRegistrationOptions,
  issuer: string,
  names: { readonly prefix: string; readonly option: string },
): SelfDescribedClientPolicy {
  const wholeNumber = (name: string, value: number): number => {
    if (!Number.isInteger(value) || value < 1) {
      throw new SvcConfigError(`${names.option}.${name} must be a whole number of at least 1.`);
    }
    return value;
  };
  const maxScopeCount = wholeNumber('maxScopeCount', options.maxScopeCount ?? DEFAULT_MAX_SCOPE_COUNT);
  const maxScopeLength = wholeNumber('maxScopeLength', options.maxScopeLength ?? DEFAULT_MAX_SCOPE_LENGTH);
  const allowedScopes = [...new Set(options.allowedScopes ?? [])];
  for (const scope of allowedScopes) {
    if (!isScopeToken(scope) || scope.startsWith('auth:') || scope.length > maxScopeLength) {
      throw new SvcConfigError(
        `${names.prefix}_ALLOWED_SCOPES: "${scope}" is not a scope a client can register (printable ASCII without spaces, quotes or backslashes, at most ${maxScopeLength} characters, not auth:*).`,
      );
    }
  }
  const audience = options.audience?.trim() ?? issuer;
  if (audience === '' || audience.length > 2048) {
    throw new SvcConfigError(
      `${names.prefix}_AUDIENCE must be 1 to 2048 characters, such as https://api.example.com.`,
    );
  }
  return { allowedScopes, audience, maxScopeCount, maxScopeLength };
}

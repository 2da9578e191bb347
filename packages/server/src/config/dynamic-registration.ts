import { SvcConfigError } from '../kernel/errors.js';
import { isScopeToken } from '../oauth/scopes.js';
import type { DynamicClientRegistrationOptions } from './options.js';

/** Dynamic client registration (SPEC.md "Dynamic client registration"), validated. */
export interface DynamicClientRegistrationConfig {
  /** `POST /register` is mapped and discovery names it. */
  readonly enabled: boolean;
  /** The scope ceiling; empty: any scope within the limits below, registered as asked. */
  readonly allowedScopes: readonly string[];
  /** The audience of the access tokens of registered clients. */
  readonly audience: string;
  readonly maxScopeCount: number;
  readonly maxScopeLength: number;
}

/** SPEC.md "Limits": DCR MaxScopeCount and MaxScopeLength. */
const DEFAULT_MAX_SCOPE_COUNT = 32;
const DEFAULT_MAX_SCOPE_LENGTH = 128;

/** The defaults over the options; `issuer` is the default audience. Errors name the setting to fix. */
export function resolveDynamicClientRegistration(
  options: DynamicClientRegistrationOptions = {},
  issuer: string,
): DynamicClientRegistrationConfig {
  const maxScopeCount = wholeNumber('maxScopeCount', options.maxScopeCount ?? DEFAULT_MAX_SCOPE_COUNT);
  const maxScopeLength = wholeNumber('maxScopeLength', options.maxScopeLength ?? DEFAULT_MAX_SCOPE_LENGTH);
  const allowedScopes = [...new Set(options.allowedScopes ?? [])];
  for (const scope of allowedScopes) {
    if (!isScopeToken(scope) || scope.startsWith('auth:') || scope.length > maxScopeLength) {
      throw new SvcConfigError(
        `SVC_DCR_ALLOWED_SCOPES: "${scope}" is not a scope a client can register (printable ASCII without spaces, quotes or backslashes, at most ${maxScopeLength} characters, not auth:*).`,
      );
    }
  }
  const audience = options.audience?.trim() ?? issuer;
  if (audience === '' || audience.length > 2048) {
    throw new SvcConfigError(
      'SVC_DCR_AUDIENCE must be 1 to 2048 characters, such as https://api.example.com.',
    );
  }
  return { enabled: options.enabled ?? false, allowedScopes, audience, maxScopeCount, maxScopeLength };
}

function wholeNumber(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new SvcConfigError(`dynamicClientRegistration.${name} must be a whole number of at least 1.`);
  }
  return value;
}

import { OAuthError, UnknownGrantError } from '../errors.js';
import type { DevicePollResult } from './device-outcomes.js';

/**
 * The OAuth error of a refused poll (RFC 8628 §3.5, docs/reference/tokens-and-sessions.md "Device authorization grant"): the status is the
 * `error`, 400 for all but invalid_client (401); slow_down carries the new `interval` in the body.
 */
export function devicePollError(result: Exclude<DevicePollResult, { status: 'complete' }>): OAuthError {
  if ('unknown' in result) return new UnknownGrantError(result.description);
  return new OAuthError(
    result.status,
    result.description,
    result.status === 'slow_down' ? { interval: result.interval } : {},
  );
}

import { SvcError } from '../kernel/errors.js';

/**
 * Why a calendar operation failed:
 *
 * - `invalid_state` (400): a callback whose state is unknown, used or expired; nothing tells where to
 *   send the browser back, so it is answered, not redirected.
 * - `reauthorization_required` (409): the provider refused the refresh token, or there is none and the
 *   access token expired: the user must consent again (a new consent keeps the connection's id).
 * - `connection_revoked` (409): the user or an operator revoked the connection.
 * - `connection_unavailable` (409): its provider connection is disabled.
 * - `user_inactive` (409): its user is deactivated.
 * - `provider_unavailable` (502): the provider could not be reached.
 * - `provider_error` (502): the provider refused the refresh for another reason than the grant.
 */
export type SvcCalendarErrorCode =
  | 'invalid_state'
  | 'reauthorization_required'
  | 'connection_revoked'
  | 'connection_unavailable'
  | 'user_inactive'
  | 'provider_unavailable'
  | 'provider_error';

const STATUS: Readonly<Record<SvcCalendarErrorCode, number>> = {
  invalid_state: 400,
  reauthorization_required: 409,
  connection_revoked: 409,
  connection_unavailable: 409,
  user_inactive: 409,
  provider_unavailable: 502,
  provider_error: 502,
};

/** A refused calendar operation; the message is safe to show and holds no token. */
export class SvcCalendarError extends SvcError {
  declare readonly code: SvcCalendarErrorCode;

  constructor(code: SvcCalendarErrorCode, message: string) {
    super(code, message, { status: STATUS[code], expose: true });
  }
}

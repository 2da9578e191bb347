import { SvcError } from '../kernel/errors.js';

/**
 * The OAuth error codes Svc answers with: RFC 6749 §4.1.2.1 and §5.2, RFC 8707 (invalid_target),
 * RFC 8628 (device polling), RFC 6750 (bearer challenges), RFC 7591 (registration) and OpenID Connect
 * Core §3.1.2.6 (prompt=none outcomes, request objects).
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'access_denied'
  | 'server_error'
  | 'temporarily_unavailable'
  | 'login_required'
  | 'consent_required'
  | 'interaction_required'
  | 'account_selection_required'
  | 'request_not_supported'
  | 'request_uri_not_supported'
  | 'authorization_pending'
  | 'slow_down'
  | 'expired_token'
  | 'invalid_token'
  | 'insufficient_scope'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata';

/** What a caller may set beside the code and description. */
export interface OAuthErrorOptions {
  /** HTTP status; 400 by default, 401 for invalid_client (RFC 6749 §5.2). */
  readonly status?: number;
  /**
   * True only once the redirect URI has been validated against the client's registration: until then an
   * error must never be sent to the (unverified) redirect URI (RFC 6749 §4.1.2.1).
   */
  readonly allowRedirect?: boolean;
  /** A `WWW-Authenticate` challenge to answer with (RFC 6749 §5.2 for Basic, RFC 6750 §3 for Bearer). */
  readonly wwwAuthenticate?: string;
  /** Device polling may tell the client a new polling interval in seconds (RFC 8628 §3.5). */
  readonly interval?: number;
  readonly cause?: unknown;
}

/** The challenge answered when a client tried HTTP Basic authentication and failed (RFC 6749 §5.2). */
export const BASIC_CHALLENGE = 'Basic realm="svc"';

const DEFAULT_STATUS: Partial<Record<OAuthErrorCode, number>> = {
  invalid_client: 401,
  invalid_token: 401,
  insufficient_scope: 403,
  server_error: 500,
  temporarily_unavailable: 503,
};

/**
 * An OAuth protocol error: `error` and `error_description` on the wire. Its description is written by
 * Svc for the caller (never a token, code or secret), so it is always exposed, even for server_error.
 */
export class OAuthError extends SvcError {
  declare readonly code: OAuthErrorCode;
  readonly allowRedirect: boolean;
  readonly wwwAuthenticate: string | undefined;
  readonly interval: number | undefined;

  constructor(code: OAuthErrorCode, description: string, options: OAuthErrorOptions = {}) {
    super(code, description, {
      status: options.status ?? DEFAULT_STATUS[code] ?? 400,
      expose: true,
      cause: options.cause,
    });
    this.allowRedirect = options.allowRedirect ?? false;
    this.wwwAuthenticate = options.wwwAuthenticate;
    this.interval = options.interval;
  }

  /** The RFC 6749 `error` value. */
  get error(): OAuthErrorCode {
    return this.code;
  }

  /** The RFC 6749 `error_description` value. */
  get description(): string {
    return this.message;
  }

  /** The same error, allowed to travel to the client's redirect URI (call only after validating it). */
  redirectable(): OAuthError {
    return new OAuthError(this.code, this.message, {
      status: this.status,
      allowRedirect: true,
      ...(this.wwwAuthenticate === undefined ? {} : { wwwAuthenticate: this.wwwAuthenticate }),
      ...(this.interval === undefined ? {} : { interval: this.interval }),
    });
  }
}

/**
 * invalid_grant for a code or token Svc does not know (never issued, or deleted since): the token
 * endpoint counts these per client address, unlike a known one that is used, expired or revoked, which
 * only its holder can present (docs/decisions/handed-out-token-failures.md).
 */
export class UnknownGrantError extends OAuthError {
  constructor(description: string) {
    super('invalid_grant', description);
  }
}

type Factory = (description: string, options?: OAuthErrorOptions) => OAuthError;

function factory(code: OAuthErrorCode): Factory {
  return (description, options) => new OAuthError(code, description, options);
}

/** One typed factory per code: `throw oauthError.invalidGrant('The code has expired.')`. */
export const oauthError = Object.freeze({
  invalidRequest: factory('invalid_request'),
  invalidClient: factory('invalid_client'),
  invalidGrant: factory('invalid_grant'),
  unauthorizedClient: factory('unauthorized_client'),
  unsupportedGrantType: factory('unsupported_grant_type'),
  unsupportedResponseType: factory('unsupported_response_type'),
  invalidScope: factory('invalid_scope'),
  invalidTarget: factory('invalid_target'),
  accessDenied: factory('access_denied'),
  serverError: factory('server_error'),
  temporarilyUnavailable: factory('temporarily_unavailable'),
  loginRequired: factory('login_required'),
  consentRequired: factory('consent_required'),
  interactionRequired: factory('interaction_required'),
  accountSelectionRequired: factory('account_selection_required'),
  requestNotSupported: factory('request_not_supported'),
  requestUriNotSupported: factory('request_uri_not_supported'),
  authorizationPending: factory('authorization_pending'),
  slowDown: factory('slow_down'),
  expiredToken: factory('expired_token'),
  invalidToken: factory('invalid_token'),
  insufficientScope: factory('insufficient_scope'),
  invalidRedirectUri: factory('invalid_redirect_uri'),
  invalidClientMetadata: factory('invalid_client_metadata'),
});

import { SvcError } from '../../kernel/errors.js';

/**
 * Why Svc, as the SAML service provider, refused to start a sign-in or to accept an IdP's answer. Every
 * code but `connection_not_found` (404) is a 400: whatever the IdP or the browser posts, a bad answer
 * is never a server error.
 *
 * - `connection_not_found`: no SSO connection has this id.
 * - `connection_disabled`: the connection is disabled (a draft without metadata is disabled too).
 * - `malformed_response`: `SAMLResponse` is missing, not base64, not XML (or has a DOCTYPE), not a
 *   SAML `Response`.
 * - `idp_error`: the IdP answered a non-success status (the user was not allowed, cancelled…).
 * - `invalid_signature`: no valid signature of the IdP's certificates covers the assertion (unsigned,
 *   stripped, forged, altered after signing, another key, a wrapped second assertion).
 * - `invalid_issuer`: the assertion's issuer is not the connection's IdP entity id.
 * - `invalid_audience`: the assertion is not for this connection's SP entity id.
 * - `invalid_destination`: the response's Destination or the confirmation's Recipient is not this
 *   connection's ACS URL.
 * - `assertion_expired`, `assertion_not_yet_valid`: outside NotBefore / NotOnOrAfter, past the skew.
 * - `unknown_request`: the answer names no AuthnRequest Svc sent for this connection and still waits
 *   for (unsolicited, forged, already answered, expired).
 * - `invalid_relay_state`: the RelayState is not the one sent with the request.
 * - `replayed_assertion`: this assertion was accepted before.
 * - `missing_email`: the assertion carries no email address (NameID or the usual attributes) that is
 *   ASCII before the @.
 * - `invalid_response`: anything else the answer breaks (no bearer confirmation, no assertion id…).
 *
 * Once an answer is accepted, who it signs in (saml-accounts.ts, the ACS route):
 * - `sign_in_expired`: the accepted answer's handle is unknown, used or expired, or its sign-in cannot go
 *   on in this browser.
 * - `organization_inactive`: the connection's organization is deactivated.
 * - `account_inactive`: the account the identity signs in as is deactivated.
 * - `membership_inactive`: the account's membership in the connection's organization is deactivated.
 * - `account_not_provisioned`: no account has the address and the connection creates none.
 * - `domain_not_claimed`: no account has the address, and the connection's organization holds no active
 *   claim on its domain, outside which no connection creates accounts.
 * - `account_not_linked`: an account has the address, and the connection may not bind it (AutoLinkByEmail
 *   off, or the organization holds no active claim on the address's domain).
 */
export type SamlErrorCode =
  | 'connection_not_found'
  | 'connection_disabled'
  | 'malformed_response'
  | 'idp_error'
  | 'invalid_signature'
  | 'invalid_issuer'
  | 'invalid_audience'
  | 'invalid_destination'
  | 'assertion_expired'
  | 'assertion_not_yet_valid'
  | 'unknown_request'
  | 'invalid_relay_state'
  | 'replayed_assertion'
  | 'missing_email'
  | 'invalid_response'
  | 'sign_in_expired'
  | 'organization_inactive'
  | 'account_inactive'
  | 'membership_inactive'
  | 'account_not_provisioned'
  | 'domain_not_claimed'
  | 'account_not_linked';

/**
 * A refused SAML sign-in. The message is safe to show and to log: it names what failed, never an
 * attribute value or the response. What the library reported is kept as `detail` for logs (its
 * messages hold entity ids and times at most), never as `cause`.
 */
export class SamlError extends SvcError {
  declare readonly code: SamlErrorCode;
  readonly detail: string | null;

  constructor(code: SamlErrorCode, message: string, detail?: string) {
    super(code, message, { status: code === 'connection_not_found' ? 404 : 400, expose: true });
    this.detail = detail ?? null;
  }
}

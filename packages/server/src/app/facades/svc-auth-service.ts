import { composeOperations, type Operations } from './operations.js';
import type { SvcAuthAccount } from './svc-auth-account.js';
import type { SvcAuthCapabilities } from './svc-auth-capabilities.js';
import type { SvcAuthMfa } from './svc-auth-mfa.js';
import type { SvcAuthProviders } from './svc-auth-providers.js';
import type { SvcAuthSecuritySettings } from './svc-auth-security-settings.js';
import type { SvcAuthSessions } from './svc-auth-sessions.js';
import type { SvcAuthSignIn } from './svc-auth-sign-in.js';

export type { SvcAuthCallContext } from './svc-auth-call-context.js';
export type { SvcAuthExtensions } from './svc-auth-capabilities.js';

/**
 * SvcAuthService: the in-process sign-in and session API, and what the direct JSON helper routes call
 * (docs/reference/sign-in.md, docs/reference/tokens-and-sessions.md). Requests are validated with the
 * contract schemas (400 SvcValidationError). The operations come from the groups of
 * {@link SvcAuthGroups}, one file each; every operation is a function of its own, callable without `this`.
 *
 * Errors: SvcPublicAuthError — `invalid_client` (400, a client that is not first-party on a sign-in
 * operation; 401, a confidential client without its `clientSecret` or with a wrong one; both audited as
 * `oauth.direct_login.rejected`), `invalid_credentials` (401, any failed password
 * sign-in), `access_denied` (403, an organization without an active membership), `invalid_token` (400
 * for a stale pending token, 401 for an inactive refresh token); SvcConflictError (409, signup with a
 * taken email); OAuthError `invalid_grant` / `invalid_target` (refresh); SvcClientAuthenticationError
 * (401, a confidential client's token at refresh); SvcInvalidOperationError (MFA wrapper; an operation
 * whose capability the host did not wire); SvcSendRefusedError (429 `resend_too_soon`: a rate limit
 * refused a code, link or account email).
 */
export interface SvcAuthService
  extends
    Operations<SvcAuthSignIn>,
    Operations<SvcAuthMfa>,
    Operations<SvcAuthSessions>,
    Operations<SvcAuthAccount>,
    Operations<SvcAuthProviders>,
    Operations<SvcAuthCapabilities>,
    Operations<SvcAuthSecuritySettings> {}

/** The groups SvcAuthService is made of, each built with the few services it calls. */
export interface SvcAuthGroups {
  /** Signup, password login, client-authenticated sign-in, organization selection. */
  readonly signIn: SvcAuthSignIn;
  /** MFA challenges, TOTP enrollment, authenticators and recovery codes. */
  readonly mfa: SvcAuthMfa;
  /** Refresh, logout, access-token validation, the host's own session issuance. */
  readonly sessions: SvcAuthSessions;
  /** A signed-in user's own consent grants and linked identities. */
  readonly account: SvcAuthAccount;
  /** Home-realm discovery, the enabled providers and the provider sign-in of first-party apps. */
  readonly providers: SvcAuthProviders;
  /** Codes, links, invitations, account emails and the device grant, built on the engine. */
  readonly capabilities: SvcAuthCapabilities;
  /** The security settings, as the operator API reads and updates them. */
  readonly securitySettings: SvcAuthSecuritySettings;
}

/** The sign-in and session API made of its groups: every group's operations on one object. */
export function svcAuthService(groups: SvcAuthGroups): SvcAuthService {
  return composeOperations<SvcAuthService>(groups);
}

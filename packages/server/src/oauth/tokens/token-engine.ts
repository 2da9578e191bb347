import { AccessTokenValidator } from './access-token-validator.js';
import { AuthorizationCodes } from './authorization-codes.js';
import type { TokenEngineDeps } from './deps.js';
import { RefreshRotation } from './refresh-rotation.js';
import { SessionIssuer } from './session-issuer.js';
import { SessionRevocation } from './session-revocation.js';

/** The token capabilities every grant and adapter uses, built over one set of deps. */
export interface TokenEngine {
  /** New sessions and minting (issueForNewSession, wantsIdToken). */
  readonly sessions: SessionIssuer;
  /** grant_type=refresh_token and the direct refresh (refresh, owner). */
  readonly refresh: RefreshRotation;
  /** Authorization codes (issue, redeem). */
  readonly codes: AuthorizationCodes;
  /** Session-aware access-token validation (validate). */
  readonly accessTokens: AccessTokenValidator;
  /** Logout, logout-all, active-session proof by refresh token. */
  readonly revocation: SessionRevocation;
}

export function createTokenEngine(deps: TokenEngineDeps): TokenEngine {
  const sessions = new SessionIssuer(deps);
  return {
    sessions,
    refresh: new RefreshRotation(deps, sessions),
    codes: new AuthorizationCodes(deps, sessions),
    accessTokens: new AccessTokenValidator(deps),
    revocation: new SessionRevocation(deps),
  };
}

import {
  svcLogoutOperationSchema,
  svcRefreshRequestSchema,
  svcRefreshTokenProofSchema,
  type SvcLogoutOperation,
  type SvcRefreshRequest,
  type SvcRefreshTokenProof,
  type SvcTokenResponse,
  type SvcValidatedToken,
} from '@svc/contract';
import { SvcValidationError } from '../../kernel/errors.js';
import { validate } from '../../kernel/validation.js';
import type { ValidatedAccessToken } from '../../oauth/tokens/access-token-validator.js';
import { toSvcTokenResponse } from '../../oauth/tokens/issued-tokens.js';
import type { TokenEngine } from '../../oauth/tokens/token-engine.js';
import type { BrowserSessions } from '../../signin/browser-sessions.js';
import { directCallOf, type DirectSignIn } from '../../signin/direct-sign-in.js';
import type { SvcAuthCallContext } from './svc-auth-call-context.js';

export interface SvcAuthSessionsDeps {
  /** Refresh through the direct helpers' client gate; the host's own session issuance. */
  readonly direct: Pick<DirectSignIn, 'refresh' | 'createSessionTokensForUser'>;
  /** Revocation and access-token validation. */
  readonly tokens: Pick<TokenEngine, 'revocation' | 'accessTokens'>;
  /** The issuer sessions a logout of every session also ends. */
  readonly browserSessions: Pick<BrowserSessions, 'endAllForUser'>;
}

function toValidatedToken(validated: ValidatedAccessToken | null): SvcValidatedToken | null {
  if (validated === null) return null;
  return {
    principal: { ...validated.claims },
    sessionId: validated.session.id,
    userId: validated.session.userId,
    organizationId: validated.session.organizationId,
    clientId: validated.session.clientId,
    audience: validated.audience,
  };
}

/**
 * The token-session operations of SvcAuthService (docs/reference/tokens-and-sessions.md): refresh,
 * logout, access-token validation for resource servers, and the host's own session issuance.
 */
export class SvcAuthSessions {
  readonly #deps: SvcAuthSessionsDeps;

  constructor(deps: SvcAuthSessionsDeps) {
    this.#deps = deps;
  }

  /**
   * RefreshAsync: rotates a public client's refresh token (optionally switching organization). There is
   * no client authentication in-process, so a confidential client's token raises
   * SvcClientAuthenticationError (audited as `oauth.client_authentication.failed`) and is not consumed.
   */
  async refreshAsync(request: SvcRefreshRequest, context?: SvcAuthCallContext): Promise<SvcTokenResponse> {
    const input = validate(svcRefreshRequestSchema, request, 'refresh request');
    return toSvcTokenResponse(await this.#deps.direct.refresh(input, directCallOf('refreshAsync', context)));
  }

  /**
   * LogoutAsync(refreshToken or sessionId; at least one, else SvcValidationError): revokes the session.
   * Unknown values are no-ops.
   */
  async logoutAsync(request: SvcLogoutOperation): Promise<void> {
    const input = validate(svcLogoutOperationSchema, request, 'logout request');
    await this.#deps.tokens.revocation.logout(input);
  }

  /** LogoutAllAsync(userId): revokes every session of the user, and the user's issuer sessions. */
  async logoutAllAsync(userId: string): Promise<void> {
    if (typeof userId !== 'string' || userId === '') throw new SvcValidationError('userId is required.');
    await this.#deps.tokens.revocation.logoutAll(userId);
    await this.#deps.browserSessions.endAllForUser(userId);
  }

  /** POST /logout-all: the user is derived from an active refresh token (401 `invalid_token` otherwise). */
  async logoutAllWithRefreshTokenAsync(request: SvcRefreshTokenProof): Promise<void> {
    const input = validate(svcRefreshTokenProofSchema, request, 'logout-all request');
    const userId = await this.#deps.tokens.revocation.logoutAllByRefreshToken(input.refreshToken);
    await this.#deps.browserSessions.endAllForUser(userId);
  }

  /**
   * ValidateAccessTokenAsync(rawToken, expectedAudience): signature, issuer, audience, lifetime (one
   * minute of skew), and a live session (exists, not revoked, not past its absolute expiry; the user
   * active). Updates the session's lastSeenAt; never checks or extends its idle deadline. Any failure is
   * null. The audience is required (SvcValidationError when empty).
   */
  async validateAccessTokenAsync(
    rawToken: string,
    expectedAudience: string,
  ): Promise<SvcValidatedToken | null> {
    if (typeof expectedAudience !== 'string' || expectedAudience === '') {
      throw new SvcValidationError(
        'expectedAudience is required: a resource server must name the audience it expects.',
      );
    }
    return toValidatedToken(
      await this.#deps.tokens.accessTokens.validate(rawToken, { audience: expectedAudience }),
    );
  }

  /**
   * The same validation without an audience check (any audience is accepted).
   *
   * @deprecated Diagnostics only. A resource server must always supply its expected audience
   * (docs/reference/tokens-and-sessions.md "Validating tokens"); use
   * {@link SvcAuthSessions.validateAccessTokenAsync}.
   */
  async validateAccessTokenWithoutAudienceAsync(rawToken: string): Promise<SvcValidatedToken | null> {
    return toValidatedToken(await this.#deps.tokens.accessTokens.validate(rawToken, { audience: null }));
  }

  /**
   * CreateSessionTokensForUserAsync(user, client, organizationId, authenticationMethod, userAgent,
   * ipAddress, resource?): the privileged escape hatch for a host that authenticated the user itself.
   * Skips organization selection and the first-party rule; never exposed as a route. The session is
   * granted the client's allow-list; `authenticationMethod` becomes its amr.
   */
  async createSessionTokensForUserAsync(
    user: string | { readonly id: string },
    client: string | { readonly clientId: string },
    organizationId: string | null,
    authenticationMethod: string,
    userAgent: string | null,
    ipAddress: string | null,
    resource?: string | null,
  ): Promise<SvcTokenResponse> {
    if (typeof authenticationMethod !== 'string' || !/^[A-Za-z0-9_.:-]{1,64}$/.test(authenticationMethod)) {
      throw new SvcValidationError(
        'authenticationMethod must be a short method name such as pwd, otp or sso.',
      );
    }
    const issued = await this.#deps.direct.createSessionTokensForUser({
      userId: typeof user === 'string' ? user : user.id,
      clientId: typeof client === 'string' ? client : client.clientId,
      organizationId,
      authenticationMethod,
      userAgent,
      ipAddress,
      resource: resource ?? null,
    });
    return toSvcTokenResponse(issued);
  }
}

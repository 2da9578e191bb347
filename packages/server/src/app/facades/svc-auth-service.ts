import {
  svcClientAuthenticationRequestSchema,
  svcLogoutOperationSchema,
  svcPasswordLoginRequestSchema,
  svcRefreshRequestSchema,
  svcRefreshTokenProofSchema,
  svcRevokeAccountGrantRequestSchema,
  svcSelectOrganizationRequestSchema,
  svcSignupRequestSchema,
  type ResolvedSecuritySettings,
  type SvcClientAuthenticationRequest,
  type SecuritySettingsUpdateBody,
  type SvcConsentGrant,
  type SvcConsentGrantRevokeResult,
  type SvcLoginResult,
  type SvcLogoutOperation,
  type SvcPasswordLoginRequest,
  type SvcRefreshRequest,
  type SvcRefreshTokenProof,
  type SvcRevokeAccountGrantRequest,
  type SvcSecuritySettings,
  type SvcSelectOrganizationRequest,
  type SvcSignupRequest,
  type SvcTokenResponse,
  type SvcValidatedToken,
} from '@svc/contract';
import type { AdminActor } from '../../audit/actor.js';
import { SvcInvalidOperationError, SvcValidationError } from '../../kernel/errors.js';
import { validate } from '../../kernel/validation.js';
import type { ValidatedAccessToken } from '../../oauth/tokens/access-token-validator.js';
import { toSvcTokenResponse } from '../../oauth/tokens/issued-tokens.js';
import type { TokenEngine } from '../../oauth/tokens/token-engine.js';
import type { BrowserSessions } from '../../signin/browser-sessions.js';
import type { ConsentGrants } from '../../signin/consent-grants.js';
import type { ClientAuthenticatedSignIn } from '../../signin/client-authenticated-sign-in.js';
import { toLoginResult } from '../../signin/direct-login-result.js';
import { directCallOf, type DirectSignIn } from '../../signin/direct-sign-in.js';
import type {
  SvcChallengeTotpEnrollmentStartRequest,
  SvcMfaAuthenticator,
  SvcMfaChallengeVerifyRequest,
  SvcMfaChallengeVerifyResult,
  SvcMfaStatus,
  SvcTotpEnrollmentStartRequest,
  SvcTotpEnrollmentStartResult,
  SvcTotpEnrollmentVerifyRequest,
  SvcTotpEnrollmentVerifyResult,
} from '@svc/contract';
import type { MfaOperations } from '../../signin/methods/mfa/mfa-operations.js';
import type { SvcAdminService } from './svc-admin-service.js';
import { SvcAuthFederationOperations, type SvcAuthFederationDeps } from './svc-auth-federation.js';

export type { SvcAuthExtensions } from './svc-auth-capabilities.js';

/** Where an in-process or HTTP call comes from; the direct routes pass their route and the client address. */
export interface SvcAuthCallContext {
  /** Recorded in audit events (for example `/svc/auth/password/login`); defaults to the operation name. */
  readonly route?: string;
  readonly ipAddress?: string;
  readonly userAgent?: string;
  /**
   * The HTTP Authorization header a direct route received: a confidential client's client_secret_basic
   * credentials. In-process callers pass the request's `clientSecret` instead.
   */
  readonly authorization?: string;
}

/** The facade's own dependencies, beside those of its provider operations (svc-auth-federation.ts). */
export interface SvcAuthServiceDeps extends SvcAuthFederationDeps {
  readonly direct: DirectSignIn;
  /** The sign-in of a user the first-party client authenticated itself. */
  readonly clientAuthentication: ClientAuthenticatedSignIn;
  readonly tokens: TokenEngine;
  readonly browserSessions: BrowserSessions;
  readonly consents: ConsentGrants;
  /** Security settings are read and updated (with validation and audit) through the admin facade. */
  readonly admin: Pick<SvcAdminService, 'getResolvedSecuritySettingsAsync' | 'updateSecuritySettingsAsync'>;
  /** TOTP enrollment and MFA challenge verification. */
  readonly mfa: MfaOperations;
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
 * SPEC.md's SvcAuthService: the in-process sign-in and session API, and what the direct JSON helper
 * routes call. Requests are validated with the contract schemas (400 SvcValidationError). The operations
 * of OpenID / social providers are inherited from SvcAuthFederationOperations, those of the capabilities
 * built on the engine (codes, links, invitations, account emails, devices) from SvcAuthCapabilityOperations.
 *
 * Errors: SvcPublicAuthError — `invalid_client` (400, a client that is not first-party on a sign-in
 * operation; 401, a confidential client without its `clientSecret` or with a wrong one; both audited as
 * `oauth.direct_login.rejected`), `invalid_credentials` (401, any failed password
 * sign-in), `access_denied` (403, an organization without an active membership), `invalid_token` (400
 * for a stale pending token, 401 for an inactive refresh token); SvcConflictError (409, signup with a
 * taken email); OAuthError `invalid_grant` / `invalid_target` (refresh); SvcClientAuthenticationError
 * (401, a confidential client's token at refresh); SvcInvalidOperationError (MFA wrapper);
 * SvcSendRefusedError (429 `resend_too_soon`: a rate limit refused a code, link or account email).
 */
export class SvcAuthService extends SvcAuthFederationOperations {
  readonly #deps: SvcAuthServiceDeps;

  constructor(deps: SvcAuthServiceDeps) {
    super(deps);
    this.#deps = deps;
  }

  /** SignUpAsync: creates the user (and organization, owned by the user) and signs in. First-party clients only. */
  async signUpAsync(request: SvcSignupRequest, context?: SvcAuthCallContext): Promise<SvcLoginResult> {
    const input = validate(svcSignupRequestSchema, request, 'signup request');
    return toLoginResult(
      await this.#deps.direct.signUp(input, directCallOf('signUpAsync', context, input.clientSecret)),
    );
  }

  /** LoginWithPasswordAsync: complete with tokens, or organization_selection. First-party clients only. */
  async loginWithPasswordAsync(
    request: SvcPasswordLoginRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcLoginResult> {
    const input = validate(svcPasswordLoginRequestSchema, request, 'password login request');
    return toLoginResult(
      await this.#deps.direct.loginWithPassword(
        input,
        directCallOf('loginWithPasswordAsync', context, input.clientSecret),
      ),
    );
  }

  /**
   * CompleteClientAuthenticationAsync({userId, clientId, authenticationMethod, organizationId?,
   * clientSecret?}): signs in a user whom the first-party client authenticated itself, through the
   * engine of password login (organization selection, MFA, application access, then tokens; amr the
   * client's `authenticationMethod`). The client vouches for `userId`; never a route. First-party clients
   * only: 400 `invalid_client` otherwise, 401 for a confidential client without its `clientSecret`;
   * 404 for an unknown user, 403 `account_inactive` for a deactivated one.
   */
  async completeClientAuthenticationAsync(
    request: SvcClientAuthenticationRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcLoginResult> {
    const input = validate(svcClientAuthenticationRequestSchema, request, 'client authentication request');
    return this.#deps.clientAuthentication.complete(
      input,
      directCallOf('completeClientAuthenticationAsync', context, input.clientSecret),
    );
  }

  /** SelectOrganizationForLoginAsync: consumes the pending token; the result keeps any MFA state. */
  async selectOrganizationForLoginAsync(
    request: SvcSelectOrganizationRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcLoginResult> {
    const input = validate(svcSelectOrganizationRequestSchema, request, 'organization selection request');
    return toLoginResult(
      await this.#deps.direct.selectOrganization(
        input,
        directCallOf('selectOrganizationForLoginAsync', context, input.clientSecret),
      ),
    );
  }

  /**
   * SelectOrganizationAsync, the token-only wrapper: throws SvcInvalidOperationError('The selected
   * organization requires MFA.') when the selection leads to an MFA state.
   */
  async selectOrganizationAsync(
    request: SvcSelectOrganizationRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcTokenResponse> {
    const result = await this.selectOrganizationForLoginAsync(request, {
      ...context,
      route: context?.route ?? 'selectOrganizationAsync',
    });
    if (result.requiresMfa || result.tokens === null) {
      throw new SvcInvalidOperationError('The selected organization requires MFA.');
    }
    return result.tokens;
  }

  /**
   * VerifyMfaChallengeAsync: a code of the user's authenticator app or a recovery code for the MFA token
   * of an mfa state; completes the sign-in with tokens. Every wrong code is `invalid_code` (400); an
   * unknown, used or expired token (or five wrong codes) `invalid_token`.
   */
  verifyMfaChallengeAsync(
    request: SvcMfaChallengeVerifyRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcMfaChallengeVerifyResult> {
    return this.#deps.mfa.verifyMfaChallenge(request, context);
  }

  /** StartTotpEnrollmentForChallengeAsync: only for an mfa_enrollment state (its MFA token). */
  startTotpEnrollmentForChallengeAsync(
    request: SvcChallengeTotpEnrollmentStartRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcTotpEnrollmentStartResult> {
    return this.#deps.mfa.startTotpEnrollmentForChallenge(request, context);
  }

  /** StartTotpEnrollmentAsync: account self-enrollment of a signed-in user (the host vouches for userId). */
  startTotpEnrollmentAsync(
    userId: string,
    request?: SvcTotpEnrollmentStartRequest,
  ): Promise<SvcTotpEnrollmentStartResult> {
    return this.#deps.mfa.startTotpEnrollment(userId, request);
  }

  /**
   * VerifyTotpEnrollmentAsync: enrollment token + code, plus the MFA token for challenge-bound
   * enrollment (then `tokens` completes the login); recovery codes are returned once.
   */
  verifyTotpEnrollmentAsync(
    request: SvcTotpEnrollmentVerifyRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcTotpEnrollmentVerifyResult> {
    return this.#deps.mfa.verifyTotpEnrollment(request, context);
  }

  /** GetMfaStatusAsync. */
  getMfaStatusAsync(userId: string): Promise<SvcMfaStatus> {
    return this.#deps.mfa.getMfaStatus(userId);
  }

  /** ListMfaAuthenticatorsAsync: confirmed authenticators (never their secrets). */
  listMfaAuthenticatorsAsync(userId: string): Promise<SvcMfaAuthenticator[]> {
    return this.#deps.mfa.listMfaAuthenticators(userId);
  }

  /** A fresh set of recovery codes (shown once); the previous ones stop working. */
  regenerateRecoveryCodesAsync(userId: string): Promise<string[]> {
    return this.#deps.mfa.regenerateRecoveryCodes(userId);
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

  /** POST /account/grants: the active consent grants of the session's user (401 without an active first-party session). */
  async listAccountGrantsAsync(request: SvcRefreshTokenProof): Promise<{ data: SvcConsentGrant[] }> {
    const input = validate(svcRefreshTokenProofSchema, request, 'account grants request');
    const session = await this.#deps.direct.requireFirstPartySession(input.refreshToken);
    return { data: await this.#deps.consents.list(session.userId) };
  }

  /** POST /account/grants/revoke: 401 without an active first-party session; 400 for an unknown or revoked grant. */
  async revokeAccountGrantAsync(request: SvcRevokeAccountGrantRequest): Promise<SvcConsentGrantRevokeResult> {
    const input = validate(svcRevokeAccountGrantRequestSchema, request, 'grant revocation request');
    const session = await this.#deps.direct.requireFirstPartySession(input.refreshToken);
    return this.#deps.consents.revoke(session.userId, input.grantId);
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
   * (SPEC.md Authentication 2); use {@link SvcAuthService.validateAccessTokenAsync}.
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

  /** GetResolvedSecuritySettingsAsync: the persisted settings plus the spans in milliseconds. */
  getResolvedSecuritySettingsAsync(): Promise<ResolvedSecuritySettings> {
    return this.#deps.admin.getResolvedSecuritySettingsAsync();
  }

  /** UpdateSecuritySettingsAsync: validated, audited, and returns the persisted settings. */
  updateSecuritySettingsAsync(
    request: SecuritySettingsUpdateBody,
    actor?: AdminActor,
  ): Promise<SvcSecuritySettings> {
    return this.#deps.admin.updateSecuritySettingsAsync(request, actor);
  }
}

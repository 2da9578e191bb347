import type { ClientRecord } from '../../directory/repository.js';
import { SvcPublicAuthError } from '../../kernel/errors.js';
import { oauthError, UnknownGrantError } from '../errors.js';
import { ACCESS_DENIED_MESSAGE } from '../../applications/errors.js';
import type { TokenEngineDeps } from './deps.js';
import type { IssuedTokens } from './issued-tokens.js';
import type { SessionRecord } from './repository.js';
import { USER_INACTIVE, type SessionIssuer } from './session-issuer.js';
import { sessionState } from './token-policy.js';
import { refreshTokenKey } from './refresh-token-value.js';

export interface RefreshInput {
  readonly refreshToken: string;
  /** The client the caller authenticated (confidential) or identified (public). */
  readonly client: ClientRecord;
  /** Switch the session to this organization (an active membership); null or omitted keeps it. */
  readonly organizationId?: string | null;
  /** RFC 8707: may repeat the family's binding, never introduce or change it. */
  readonly resource?: string | null;
}

/** Who a refresh token belongs to, read without using it (the direct helper's confidential-client check). */
export interface RefreshTokenOwner {
  readonly sessionId: string;
  readonly clientId: string;
  readonly userId: string;
  /** The session's granted scope (null for a session created before granted scope was recorded). */
  readonly grantedScopes: readonly string[] | null;
}

const INVALID = 'The refresh token is not valid.';

/** A consumed token presented again within the grace window: refused, the family kept, and audited. */
const REUSE_IN_GRACE = 'oauth.refresh_token.reuse_in_grace';

/**
 * Refresh-token rotation (docs/reference/tokens-and-sessions.md "Refresh tokens": Refresh token: refresh succeeds … old token consumed, new pair issued;
 * session idle deadline becomes now plus SessionIdleTimeout).
 *
 * Transitions of a presented token:
 * - unknown, revoked, expired, or another client's → invalid_grant
 * - consumed, presented again within RefreshTokenGraceWindowSeconds of its consumption → invalid_grant,
 *   an `oauth.refresh_token.reuse_in_grace` event, and the family stays intact. This is the documented grace-window rule: a client that lost the answer
 *   of a refresh, or raced itself, is not signed out, and it never receives a second valid token (so
 *   concurrent replays yield exactly one new token).
 * - consumed, presented after the grace window → treated as theft: the whole session (family) is revoked,
 *   an `oauth.refresh_token.reuse_detected` event recorded, and invalid_grant
 * - session revoked, past its idle deadline or past its absolute lifetime → invalid_grant (refused)
 * - resource differing from the family's binding (or introducing one) → invalid_target
 * - user deactivated, or the session's organization membership gone → invalid_grant
 * - organization switch to an organization without an active membership → access_denied (403); the
 *   token is not consumed
 * - otherwise, in one write (TokenStore.rotateRefreshToken): the old token is consumed by a conditional
 *   UPDATE (the race guard), a new token joins the family (expiring at min(now + RefreshTokenLifetime,
 *   absolute deadline)) and the idle deadline becomes min(now + SessionIdleTimeout, absolute deadline);
 *   then a new access token and, when the session's grant includes openid in provider mode, an ID token
 *   without nonce. The scope echoes the session's original grant.
 */
export class RefreshRotation {
  readonly #deps: TokenEngineDeps;
  readonly #issuer: SessionIssuer;

  constructor(deps: TokenEngineDeps, issuer: SessionIssuer) {
    this.#deps = deps;
    this.#issuer = issuer;
  }

  /** The session, client and user a refresh token belongs to, in any state; undefined when unknown. */
  async owner(refreshToken: string): Promise<RefreshTokenOwner | undefined> {
    const found = await this.#deps.store.findRefreshToken(refreshTokenKey(refreshToken));
    return found === undefined
      ? undefined
      : {
          sessionId: found.session.id,
          clientId: found.session.clientId,
          userId: found.session.userId,
          grantedScopes: found.session.grantedScopes,
        };
  }

  async refresh(input: RefreshInput): Promise<IssuedTokens> {
    const { store, clock } = this.#deps;
    const now = clock.now();
    const settings = await this.#deps.settings.getResolved();
    const found = await store.findRefreshToken(refreshTokenKey(input.refreshToken));
    if (found === undefined) throw new UnknownGrantError(INVALID);
    const { token, session } = found;
    if (session.clientId !== input.client.clientId || !input.client.active) {
      throw oauthError.invalidGrant('The refresh token was not issued to this client.');
    }
    if (token.revokedAt !== null) throw oauthError.invalidGrant(INVALID);
    if (token.consumedAt !== null) {
      if (now - token.consumedAt <= settings.refreshTokenGraceWindowSeconds * 1000) {
        await this.#recordReuse(REUSE_IN_GRACE, session);
        throw oauthError.invalidGrant('The refresh token was already used.');
      }
      await this.#revokeFamily(session, now);
      throw oauthError.invalidGrant('The refresh token was already used; the session has been revoked.');
    }
    if (now >= token.expiresAt) throw oauthError.invalidGrant('The refresh token has expired.');
    const state = sessionState(session, now);
    if (state !== 'active') throw oauthError.invalidGrant(SESSION_MESSAGES[state]);
    if (input.resource !== undefined && input.resource !== null && input.resource !== session.resource) {
      throw oauthError.invalidTarget(
        'The resource of a refresh must be the one the session was granted for; it cannot be introduced or changed.',
      );
    }

    if (!found.user.active) throw oauthError.invalidGrant(USER_INACTIVE);
    const organizationId = await this.#organizationAfterRefresh(session, input.organizationId ?? null);
    // docs/reference/tokens-and-sessions.md "Refresh tokens": disabled means existing sessions fail refresh; so does any other refusal.
    const who = { userId: session.userId, organizationId };
    if ((await this.#deps.access.denial(input.client, who, { flow: 'refresh_token' })) !== null) {
      throw oauthError.invalidGrant(ACCESS_DENIED_MESSAGE);
    }

    const refreshed: SessionRecord = {
      ...session,
      organizationId,
      lastSeenAt: now,
      idleExpiresAt: Math.min(now + settings.sessionIdleTimeoutMs, session.absoluteExpiresAt),
    };
    const next = this.#issuer.newRefreshToken(refreshed, now, settings);
    // The new tokens state nothing the rotation changes: they are signed while the rotation is written.
    const started = this.#issuer.startTokens(refreshed, input.client, found.user, {
      includeIdToken: this.#issuer.wantsIdToken(refreshed.grantedScopes),
      // docs/reference/tokens-and-sessions.md "The token endpoint": a refresh-minted ID token carries no nonce.
      nonce: null,
    });
    // The race guard: of any number of concurrent refreshes with this token exactly one consumes it.
    const outcome = await store.rotateRefreshToken({
      tokenId: token.id,
      now,
      update: refreshed,
      next: next.record,
    });
    if (outcome === 'token_used') {
      // A concurrent refresh consumed it a moment ago: a replay inside the grace window as well.
      await this.#recordReuse(REUSE_IN_GRACE, session);
      throw oauthError.invalidGrant('The refresh token was already used.');
    }
    if (outcome === 'session_revoked') throw oauthError.invalidGrant(SESSION_MESSAGES.revoked);

    return this.#issuer.mint(refreshed, input.client, found.user, {
      refreshToken: next.refreshToken,
      started,
    });
  }

  /** The organization after the refresh: a switch needs an active membership; the current one is re-checked. */
  async #organizationAfterRefresh(session: SessionRecord, requested: string | null): Promise<string | null> {
    if (requested === null || requested === session.organizationId) {
      await this.#issuer.assertMembership(session.userId, session.organizationId);
      return session.organizationId;
    }
    if (!(await this.#deps.memberships.hasActiveMembership(session.userId, requested))) {
      throw new SvcPublicAuthError(
        'access_denied',
        'The user is not an active member of the requested organization.',
        403,
      );
    }
    return requested;
  }

  async #revokeFamily(session: SessionRecord, now: number): Promise<void> {
    if (await this.#deps.store.revokeSession(session.id, now, 'refresh_token_reuse')) {
      await this.#recordReuse('oauth.refresh_token.reuse_detected', session);
    }
  }

  /** A reuse event: the client, user, organization and session it concerns; never the token. */
  #recordReuse(kind: string, session: SessionRecord): Promise<void> {
    return this.#deps.audit.record({
      kind,
      actorType: 'client',
      actorId: session.clientId,
      userId: session.userId,
      clientId: session.clientId,
      ...(session.organizationId === null ? {} : { organizationId: session.organizationId }),
      data: { sessionId: session.id },
    });
  }
}

const SESSION_MESSAGES = {
  revoked: 'The session has been revoked.',
  idle_expired: 'The session expired after inactivity.',
  absolute_expired: 'The session reached its maximum lifetime.',
} as const;

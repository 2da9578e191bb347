import type { ResolvedSecuritySettings } from '@svc/contract';
import type { ClientRecord, UserRecord } from '../../directory/repository.js';
import { sha256Hex } from '../../kernel/crypto.js';
import { oauthError } from '../errors.js';
import type { TokenEngineDeps } from './deps.js';
import type { IssuedTokens } from './issued-tokens.js';
import type { RefreshTokenRecord, SessionRecord } from './repository.js';
import {
  accessTokenClaims,
  idTokenClaims,
  type ClaimsUser,
  type SessionClaimsInput,
} from './token-claims.js';
import {
  ACCESS_TOKEN_LIFETIME_SECONDS,
  ACCESS_TOKEN_TYP,
  ID_TOKEN_LIFETIME_SECONDS,
  TOKEN_TYPE,
} from './token-policy.js';
import { refreshTokenValue } from './refresh-token-value.js';

/** A sign-in that is complete and may get a session: who, at which client, with what grant. */
export interface NewSessionInput {
  readonly userId: string;
  readonly client: ClientRecord;
  /** Null for a user-scoped session. The caller ran the organization policy. */
  readonly organizationId: string | null;
  /** The granted scopes (already intersected with the client's allow-list). */
  readonly scopes: readonly string[];
  /** The RFC 8707 resource to bind the family to; null = the client's audience. */
  readonly resource: string | null;
  readonly amr: readonly string[];
  /** Epoch milliseconds of the original authentication. */
  readonly authTime: number;
  /** The authorization request's nonce, echoed by the ID token. */
  readonly nonce?: string | null;
  /** The caller decides: OpenID provider mode on and `openid` granted (see {@link SessionIssuer.wantsIdToken}). */
  readonly includeIdToken: boolean;
  readonly userAgent?: string | null;
  readonly ipAddress?: string | null;
}

/** A refresh token as handed out once: the raw value never reaches storage. */
export interface NewRefreshToken {
  readonly value: string;
  readonly expiresAt: number;
}

/** A session about to be written, with its first refresh token (the raw value and the stored record). */
export interface NewSession {
  readonly session: SessionRecord;
  readonly refreshToken: NewRefreshToken;
  readonly firstToken: RefreshTokenRecord;
}

/** Which tokens a session gets besides its access token. */
export interface TokenRequest {
  readonly includeIdToken: boolean;
  /** The authorization request's nonce, for the ID token. */
  readonly nonce: string | null;
}

/**
 * What minting needs besides the session: its refresh token, and either the tokens already being signed
 * ({@link SessionIssuer.startTokens}) or the request to sign them now.
 */
export type MintOptions = { readonly refreshToken: NewRefreshToken } & (
  { readonly started: PendingTokens } | TokenRequest
);

/** A session's access token (and ID token when asked) being signed, and the second their lifetime counts from. */
export interface PendingTokens {
  readonly tokens: Promise<{ readonly accessToken: string; readonly idToken?: string }>;
  readonly issuedAtSeconds: number;
}

/** The latest a refresh token may live: its own lifetime, never past the session's absolute lifetime. */
function refreshTokenExpiry(
  now: number,
  settings: ResolvedSecuritySettings,
  absoluteExpiresAt: number,
): number {
  return Math.min(now + settings.refreshTokenLifetimeMs, absoluteExpiresAt);
}

/**
 * Creates token sessions and mints their tokens.
 *
 * A new session gets its idle deadline at now + SessionIdleTimeout and its absolute deadline at now +
 * SessionAbsoluteLifetime (docs/reference/tokens-and-sessions.md "Sessions"); its first refresh token (256 random bits, stored
 * as SHA-256) expires at min(now + RefreshTokenLifetime, absolute deadline). Access tokens are RS256 JWTs
 * (`typ` at+jwt) whose `aud` is the bound resource or else the client's audience; they live 15 minutes.
 */
export class SessionIssuer {
  readonly #deps: TokenEngineDeps;

  constructor(deps: TokenEngineDeps) {
    this.#deps = deps;
  }

  /** docs/reference/tokens-and-sessions.md "Access tokens and ID tokens": an ID token only "when OpenID provider mode is enabled and the granted scope includes openid". */
  wantsIdToken(scopes: readonly string[] | null): boolean {
    return this.#deps.openIdEnabled && scopes !== null && scopes.includes('openid');
  }

  /** Creates a session and its first refresh token, then mints the access (and ID) token. */
  async issueForNewSession(input: NewSessionInput): Promise<IssuedTokens> {
    const user = await this.activeUser(input.userId);
    const settings = await this.#deps.settings.getResolved();
    const created = this.newSession(input, this.#deps.clock.now(), settings);
    await this.#deps.store.createSession(created.session, created.firstToken);
    return this.mint(created.session, input.client, user, {
      refreshToken: created.refreshToken,
      includeIdToken: input.includeIdToken,
      nonce: input.nonce ?? null,
    });
  }

  /**
   * A new session and its first refresh token, for the caller to write (the store's createSession, or
   * a grant's own write). `id` is the session's id when the caller needed it before; a new one otherwise.
   */
  newSession(
    input: NewSessionInput,
    now: number,
    settings: ResolvedSecuritySettings,
    id: string = this.#deps.ids.id('ses'),
  ): NewSession {
    const absoluteExpiresAt = now + settings.sessionAbsoluteLifetimeMs;
    const session: SessionRecord = {
      id,
      userId: input.userId,
      clientId: input.client.clientId,
      organizationId: input.organizationId,
      grantedScopes: [...input.scopes],
      resource: input.resource,
      amr: [...input.amr],
      authTime: input.authTime,
      userAgent: input.userAgent ?? null,
      ipAddress: input.ipAddress ?? null,
      createdAt: now,
      lastSeenAt: now,
      idleExpiresAt: Math.min(now + settings.sessionIdleTimeoutMs, absoluteExpiresAt),
      absoluteExpiresAt,
      revokedAt: null,
      revokedReason: null,
    };
    const { refreshToken, record } = this.newRefreshToken(session, now, settings);
    return { session, refreshToken, firstToken: record };
  }

  /** A new refresh token in the session's family (first issue and every rotation), not yet written. */
  newRefreshToken(
    session: SessionRecord,
    now: number,
    settings: ResolvedSecuritySettings,
  ): { refreshToken: NewRefreshToken; record: RefreshTokenRecord } {
    const id = this.#deps.ids.id('rft');
    const value = refreshTokenValue(id, this.#deps.ids.secret());
    const expiresAt = refreshTokenExpiry(now, settings, session.absoluteExpiresAt);
    return {
      refreshToken: { value, expiresAt },
      record: {
        id,
        sessionId: session.id,
        tokenHash: sha256Hex(value),
        createdAt: now,
        expiresAt,
        consumedAt: null,
        revokedAt: null,
      },
    };
  }

  /**
   * Starts signing a session's access token, and its ID token when asked, now: a caller that still has
   * to write the session starts them first, so that the signatures (a job on the signing thread) run
   * while it writes, and passes them to {@link mint}. If the write fails, the tokens are dropped unread,
   * and a failed signature is reported by `mint`, not as an unhandled rejection. Everything the tokens
   * state is known before the write. The ID token is signed right after the access token in the same
   * job, since its `at_hash` needs the access token.
   */
  startTokens(
    session: SessionRecord,
    client: ClientRecord,
    user: ClaimsUser,
    request: TokenRequest,
  ): PendingTokens {
    // The JWT's exp is whole seconds from the same clock reading; the response reports exactly that instant.
    const issuedAtSeconds = Math.floor(this.#deps.clock.now() / 1000);
    const access = {
      claims: accessTokenClaims(sessionClaims(session)),
      options: {
        typ: ACCESS_TOKEN_TYP,
        subject: session.userId,
        audience: session.resource ?? client.audience,
        expiresInSeconds: ACCESS_TOKEN_LIFETIME_SECONDS,
      },
    };
    const tokens = request.includeIdToken
      ? this.#deps.tokens.signWithIdToken(access, {
          // Object.assign, not a literal opening with a spread
          // (docs/reference/storage.md "The token path").
          claims: idTokenClaims(
            Object.assign(sessionClaims(session), {
              user,
              amr: session.amr,
              authTime: session.authTime,
              nonce: request.nonce,
            }),
          ),
          options: {
            subject: session.userId,
            audience: session.clientId,
            expiresInSeconds: ID_TOKEN_LIFETIME_SECONDS,
          },
        })
      : this.#deps.tokens.sign(access.claims, access.options).then((accessToken) => ({ accessToken }));
    tokens.catch(() => undefined);
    return { tokens, issuedAtSeconds };
  }

  /** The session's token response: its tokens (started earlier, or signed now) and its refresh token. */
  async mint(
    session: SessionRecord,
    client: ClientRecord,
    user: ClaimsUser,
    options: MintOptions,
  ): Promise<IssuedTokens> {
    const pending = 'started' in options ? options.started : this.startTokens(session, client, user, options);
    const { accessToken, idToken } = await pending.tokens;
    return {
      accessToken,
      tokenType: TOKEN_TYPE,
      refreshToken: options.refreshToken.value,
      sessionId: session.id,
      clientId: session.clientId,
      organizationId: session.organizationId,
      scope: session.grantedScopes,
      expiresIn: ACCESS_TOKEN_LIFETIME_SECONDS,
      accessTokenExpiresAt: (pending.issuedAtSeconds + ACCESS_TOKEN_LIFETIME_SECONDS) * 1000,
      refreshTokenExpiresAt: options.refreshToken.expiresAt,
      // Spreads last: one between properties costs V8 a slower path on every call.
      ...(idToken === undefined ? {} : { idToken }),
    };
  }

  /** The user, who must exist and be active; otherwise the grant fails (invalid_grant). */
  async activeUser(userId: string): Promise<UserRecord> {
    const user = await this.#deps.users.findById(userId);
    if (user === undefined || !user.active) throw oauthError.invalidGrant(USER_INACTIVE);
    return user;
  }

  /** The organization of a session must still hold an active membership in an active organization. */
  async assertMembership(userId: string, organizationId: string | null): Promise<void> {
    if (organizationId === null) return;
    if (!(await this.#deps.memberships.hasActiveMembership(userId, organizationId))) {
      throw oauthError.invalidGrant('The user is no longer an active member of the organization.');
    }
  }
}

/** A grant refused because the session's user was deactivated. */
export const USER_INACTIVE = 'The user is not active.';

/** The session facts both tokens state. */
function sessionClaims(session: SessionRecord): SessionClaimsInput {
  return {
    sessionId: session.id,
    userId: session.userId,
    clientId: session.clientId,
    organizationId: session.organizationId,
    scopes: session.grantedScopes ?? [],
  };
}

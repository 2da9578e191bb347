import type { ClientRecord } from '../../directory/repository.js';
import { sha256Hex } from '../../kernel/crypto.js';
import { oauthError, UnknownGrantError } from '../errors.js';
import { isValidCodeVerifier, verifyPkce } from '../pkce.js';
import { ACCESS_DENIED_MESSAGE } from '../../applications/errors.js';
import type { TokenEngineDeps } from './deps.js';
import type { IssuedTokens } from './issued-tokens.js';
import type { AuthorizationCodeRecord } from './repository.js';
import { USER_INACTIVE, type SessionIssuer } from './session-issuer.js';
import { AUTHORIZATION_CODE_LIFETIME_MS } from './token-policy.js';

/**
 * What a completed authorization request binds to its code: the stored record without the fields that
 * `issue` and redemption manage (hash, timestamps, session); the browser's user agent and address when
 * the completion knows them.
 */
export type AuthorizationCodeInput = Omit<
  AuthorizationCodeRecord,
  'codeHash' | 'createdAt' | 'expiresAt' | 'consumedAt' | 'sessionId' | 'userAgent' | 'ipAddress'
> & { readonly userAgent?: string | null; readonly ipAddress?: string | null };

export interface IssuedAuthorizationCode {
  /** The raw code, for the redirect only; storage keeps its SHA-256. */
  readonly code: string;
  readonly expiresAt: number;
}

export interface RedeemInput {
  readonly code: string;
  /** The client the token endpoint authenticated (confidential) or identified (public). */
  readonly client: ClientRecord;
  /** docs/reference/tokens-and-sessions.md "Authorization codes and PKCE". */
  readonly redirectUri?: string | null;
  readonly codeVerifier?: string | null;
  /** docs/reference/tokens-and-sessions.md "Refresh tokens". */
  readonly resource?: string | null;
}

const INVALID = 'The authorization code is not valid.';

/**
 * Authorization codes: 5 minutes, single use (docs/reference/tokens-and-sessions.md "Authorization codes and PKCE"). Redemption rules, in order:
 *
 * - unknown → invalid_grant
 * - already consumed (reuse) → invalid_grant, and the session its first redemption created is revoked
 *   (RFC 6749 §4.1.2; an `oauth.authorization_code.reuse_detected` event is recorded)
 * - expired, issued to another client, or `redirect_uri` supplied and different → invalid_grant
 * - PKCE: a bound code needs a `code_verifier` of 43-128 RFC 7636 unreserved characters (missing or
 *   malformed → invalid_request) whose S256 challenge equals the stored one in constant time (else
 *   invalid_grant); a verifier for a code that was not PKCE-bound → invalid_grant
 * - `resource` supplied and different from the code's → invalid_target
 * - user deactivated or organization membership gone → invalid_grant
 * - otherwise, in one write (TokenStore.redeemAuthorizationCode): the code is consumed by a conditional
 *   UPDATE, the session and its first refresh token are created and remembered on the code; the access
 *   token is signed meanwhile, then the ID token (echoing the nonce) when provider mode is on and `openid`
 *   was granted.
 *
 * Checks that can fail run before the code is consumed, so a mistaken request does not burn it.
 */
export class AuthorizationCodes {
  readonly #deps: TokenEngineDeps;
  readonly #issuer: SessionIssuer;

  constructor(deps: TokenEngineDeps, issuer: SessionIssuer) {
    this.#deps = deps;
    this.#issuer = issuer;
  }

  /** Issues the code of a completed authorization request. */
  async issue(input: AuthorizationCodeInput): Promise<IssuedAuthorizationCode> {
    const now = this.#deps.clock.now();
    const code = this.#deps.ids.secret();
    const expiresAt = now + AUTHORIZATION_CODE_LIFETIME_MS;
    await this.#deps.store.insertAuthorizationCode({
      codeHash: sha256Hex(code),
      clientId: input.clientId,
      userId: input.userId,
      organizationId: input.organizationId,
      redirectUri: input.redirectUri,
      codeChallenge: input.codeChallenge,
      scopes: [...input.scopes],
      resource: input.resource,
      nonce: input.nonce,
      authTime: input.authTime,
      amr: [...input.amr],
      createdAt: now,
      expiresAt,
      consumedAt: null,
      sessionId: null,
      userAgent: input.userAgent ?? null,
      ipAddress: input.ipAddress ?? null,
    });
    return { code, expiresAt };
  }

  /** Exchanges a code for tokens (grant_type=authorization_code). */
  async redeem(input: RedeemInput): Promise<IssuedTokens> {
    const { store, clock } = this.#deps;
    const now = clock.now();
    const codeHash = sha256Hex(input.code);
    const found = await store.findAuthorizationCode(codeHash);
    if (found === undefined) throw new UnknownGrantError(INVALID);
    const { code, user } = found;
    if (code.consumedAt !== null) return this.#reuse(codeHash, now);
    if (now >= code.expiresAt) throw oauthError.invalidGrant('The authorization code has expired.');
    if (code.clientId !== input.client.clientId || !input.client.active) {
      throw oauthError.invalidGrant('The authorization code was not issued to this client.');
    }
    if (
      input.redirectUri !== undefined &&
      input.redirectUri !== null &&
      input.redirectUri !== code.redirectUri
    ) {
      throw oauthError.invalidGrant('The redirect_uri does not match the one of the authorization request.');
    }
    checkPkce(code, input.codeVerifier ?? null);
    if (input.resource !== undefined && input.resource !== null && input.resource !== code.resource) {
      throw oauthError.invalidTarget('The resource does not match the one of the authorization request.');
    }
    if (!user.active) throw oauthError.invalidGrant(USER_INACTIVE);
    await this.#issuer.assertMembership(code.userId, code.organizationId);
    // An operator's change since the code was issued holds at once (nothing is cached).
    const who = { userId: code.userId, organizationId: code.organizationId };
    if ((await this.#deps.access.denial(input.client, who, { flow: 'authorization_code' })) !== null) {
      throw oauthError.invalidGrant(ACCESS_DENIED_MESSAGE);
    }
    const settings = await this.#deps.settings.getResolved();

    const created = this.#issuer.newSession(
      {
        userId: code.userId,
        client: input.client,
        organizationId: code.organizationId,
        scopes: code.scopes,
        resource: code.resource,
        amr: code.amr,
        authTime: code.authTime,
        includeIdToken: false,
        // Where the user signed in, not where the client redeems from.
        userAgent: code.userAgent,
        ipAddress: code.ipAddress,
      },
      now,
      settings,
    );
    // Signed while the session is written (a lost race drops them unread).
    const started = this.#issuer.startTokens(created.session, input.client, user, {
      includeIdToken: this.#issuer.wantsIdToken(code.scopes),
      nonce: code.nonce,
    });
    // Lost a race with a concurrent redemption of the same code: that is a reuse too.
    if (!(await store.redeemAuthorizationCode(codeHash, now, created.session, created.firstToken))) {
      return this.#reuse(codeHash, now);
    }

    return this.#issuer.mint(created.session, input.client, user, {
      refreshToken: created.refreshToken,
      started,
    });
  }

  /** RFC 6749 §4.1.2: deny, and revoke what the first redemption issued. */
  async #reuse(codeHash: string, now: number): Promise<never> {
    const code = (await this.#deps.store.findAuthorizationCode(codeHash))?.code;
    if (
      code?.sessionId != null &&
      (await this.#deps.store.revokeSession(code.sessionId, now, 'authorization_code_reuse'))
    ) {
      await this.#deps.audit.record({
        kind: 'oauth.authorization_code.reuse_detected',
        actorType: 'client',
        actorId: code.clientId,
        userId: code.userId,
        clientId: code.clientId,
        ...(code.organizationId === null ? {} : { organizationId: code.organizationId }),
        data: { sessionId: code.sessionId },
      });
    }
    throw oauthError.invalidGrant('The authorization code was already used.');
  }
}

/** RFC 7636 §4.6 with S256 only. */
function checkPkce(code: AuthorizationCodeRecord, verifier: string | null): void {
  if (code.codeChallenge === null) {
    if (verifier !== null) {
      throw oauthError.invalidGrant('The authorization request carried no code_challenge.');
    }
    return;
  }
  if (verifier === null) throw oauthError.invalidRequest('code_verifier is required.');
  if (!isValidCodeVerifier(verifier)) {
    throw oauthError.invalidRequest(
      'code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_" and "~" (RFC 7636).',
    );
  }
  if (!verifyPkce(verifier, code.codeChallenge)) {
    throw oauthError.invalidGrant('The code_verifier does not match the code_challenge.');
  }
}

import { jwtVerify, type JWTPayload } from 'jose';
import type { Clock } from '../../kernel/clock.js';
import { SvcUnavailableError } from '../../kernel/errors.js';
import type { Ids } from '../../kernel/ids.js';
import { LruMap } from '../../kernel/lru-map.js';
import { publishedKey } from '../keys/published-key.js';
import type { ActiveSigningKey, SigningKeys } from '../keys/signing-keys.js';
import type { SigningThread } from './signing-thread.js';

/** docs/reference/limits.md "Sizes and lengths": JWT clock skew is one minute. */
export const CLOCK_SKEW_SECONDS = 60;

export interface SignOptions {
  /** JOSE `typ` header, for example `at+jwt` for access tokens (RFC 9068). */
  readonly typ?: string;
  readonly subject?: string;
  readonly audience?: string | string[];
  readonly expiresInSeconds: number;
}

export interface VerifyOptions {
  /** Required: a resource server must always supply the expected audience (docs/reference/tokens-and-sessions.md "Access tokens and ID tokens"). */
  readonly audience: string | string[];
  readonly typ?: string;
}

export interface TokenServiceDeps {
  readonly keys: SigningKeys;
  readonly issuer: string;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly signer: SigningThread;
}

/** How many verified tokens a node remembers (about 1 KB each). */
const VERIFIED_TOKENS = 10_000;

/** A token whose signature and claims passed, for the audience and typ it was verified against. */
interface VerifiedToken {
  readonly payload: JWTPayload;
  readonly kid: string;
  readonly exp: number;
}

/** Signs and verifies the service's JWTs (RS256) with the active and published keys. */
export class TokenService {
  readonly #deps: TokenServiceDeps;
  /**
   * Verified tokens by (typ, audience, token). A resource server presents the same access token on
   * every call of its life, and the RS256 verification is most of a validation's CPU; what can change
   * after it passed is time and the key, so a hit checks expiry (with the same skew) and that the key
   * is still published, and anything else is verified again in full.
   */
  readonly #verified = new LruMap<string, VerifiedToken>(VERIFIED_TOKENS);
  readonly #publishedKey: ReturnType<typeof publishedKey>;

  constructor(deps: TokenServiceDeps) {
    this.#deps = deps;
    this.#publishedKey = publishedKey(deps.keys);
  }

  get issuer(): string {
    return this.#deps.issuer;
  }

  /**
   * Signs `claims` with the active key; iss, iat, exp and jti are set here from the injected clock.
   * The JWS compact serialization (RFC 7515 §7.1) is assembled here and signed on the signing thread;
   * everything that reads tokens verifies them with jose.
   */
  async sign(claims: JWTPayload, options: SignOptions): Promise<string> {
    const key = await this.#deps.keys.activeKey();
    const now = Math.floor(this.#deps.clock.now() / 1000);
    const { header, payload } = this.#jws(key, now, claims, options);
    const input = `${base64url(header)}.${base64url(payload)}`;
    return `${input}.${await this.#deps.signer.signRs256(key.privateKey, input)}`;
  }

  /**
   * An access token and the ID token bound to it by `at_hash` (OpenID Connect Core §3.1.3.6), both as
   * {@link sign} makes them, in one job of the signing thread (which computes `at_hash`).
   */
  async signWithIdToken(
    access: { readonly claims: JWTPayload; readonly options: SignOptions },
    idToken: { readonly claims: JWTPayload; readonly options: SignOptions },
  ): Promise<{ accessToken: string; idToken: string }> {
    const key = await this.#deps.keys.activeKey();
    const now = Math.floor(this.#deps.clock.now() / 1000);
    const accessJws = this.#jws(key, now, access.claims, access.options);
    const input = `${base64url(accessJws.header)}.${base64url(accessJws.payload)}`;
    const idJws = this.#jws(key, now, idToken.claims, idToken.options);
    const signed = await this.#deps.signer.signWithIdToken(key.privateKey, input, {
      header: base64url(idJws.header),
      payload: idJws.payload,
    });
    return { accessToken: `${input}.${signed.signature}`, idToken: signed.idToken };
  }

  /** The JSON of a JWS header and payload: the claims with iss, iat, exp, jti, sub and aud. */
  #jws(
    key: ActiveSigningKey,
    now: number,
    claims: JWTPayload,
    options: SignOptions,
  ): { header: string; payload: string } {
    const header = {
      alg: key.alg,
      kid: key.kid,
      ...(options.typ === undefined ? {} : { typ: options.typ }),
    };
    // Not `{ ...claims, iss, … }`: a literal that opens with a spread and then adds properties takes a
    // slow path in V8 (docs/reference/storage.md "The token path").
    const payload: JWTPayload = Object.assign({}, claims, {
      iss: this.#deps.issuer,
      iat: now,
      exp: now + options.expiresInSeconds,
      jti: claims.jti ?? this.#deps.ids.id('jti'),
    });
    if (options.subject !== undefined) payload.sub = options.subject;
    if (options.audience !== undefined) payload.aud = options.audience;
    return { header: JSON.stringify(header), payload: JSON.stringify(payload) };
  }

  /**
   * Verifies signature (published keys only, RS256 only), issuer, audience, expiry and not-before with one
   * minute of skew. An invalid token is an expected outcome: the result is null, never a throw.
   */
  async verify(token: string, options: VerifyOptions): Promise<JWTPayload | null> {
    const cacheKey = `${options.typ ?? ''} ${JSON.stringify(options.audience)} ${token}`;
    const known = this.#verified.get(cacheKey);
    if (known !== undefined) {
      if (await this.#stillValid(known)) return known.payload;
      this.#verified.delete(cacheKey);
    }
    try {
      const { payload, protectedHeader } = await jwtVerify(token, this.#publishedKey, {
        issuer: this.#deps.issuer,
        audience: options.audience,
        algorithms: ['RS256'],
        clockTolerance: CLOCK_SKEW_SECONDS,
        currentDate: new Date(this.#deps.clock.now()),
        requiredClaims: ['exp', 'iat'],
        ...(options.typ === undefined ? {} : { typ: options.typ }),
      });
      // Both are present: the key was found by kid, and exp is a required claim.
      const verified = { payload: deepFreeze(payload), kid: protectedHeader.kid!, exp: payload.exp! };
      this.#verified.set(cacheKey, verified);
      return verified.payload;
    } catch (error) {
      // The key set could not be read: that is no verdict on the token.
      if (error instanceof SvcUnavailableError) throw error;
      return null;
    }
  }

  /** jose's expiry rule (exp after now minus the skew, in whole seconds) and the key still published. */
  async #stillValid(known: VerifiedToken): Promise<boolean> {
    const now = Math.floor(this.#deps.clock.now() / 1000);
    if (known.exp <= now - CLOCK_SKEW_SECONDS) return false;
    return (await this.#deps.keys.verificationKey(known.kid)) !== undefined;
  }
}

function base64url(json: string): string {
  return Buffer.from(json).toString('base64url');
}

/** Freezes a verified payload throughout: every caller of a remembered token shares the one object. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

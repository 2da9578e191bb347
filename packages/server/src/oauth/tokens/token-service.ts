import { SignJWT, jwtVerify, type JWTPayload } from 'jose';
import type { Clock } from '../../kernel/clock.js';
import type { Ids } from '../../kernel/ids.js';
import type { SigningKeys } from '../keys/signing-keys.js';

/** SPEC.md "Limits": JWT clock skew is one minute. */
export const CLOCK_SKEW_SECONDS = 60;

export interface SignOptions {
  /** JOSE `typ` header, for example `at+jwt` for access tokens (RFC 9068). */
  readonly typ?: string;
  readonly subject?: string;
  readonly audience?: string | string[];
  readonly expiresInSeconds: number;
}

export interface VerifyOptions {
  /** Required: a resource server must always supply the expected audience (SPEC.md Authentication 2). */
  readonly audience: string | string[];
  readonly typ?: string;
}

export interface TokenServiceDeps {
  readonly keys: SigningKeys;
  readonly issuer: string;
  readonly clock: Clock;
  readonly ids: Ids;
}

/** Signs and verifies the service's JWTs (RS256) with the active and published keys. */
export class TokenService {
  readonly #deps: TokenServiceDeps;

  constructor(deps: TokenServiceDeps) {
    this.#deps = deps;
  }

  get issuer(): string {
    return this.#deps.issuer;
  }

  /** Signs `claims` with the active key; iss, iat, exp and jti are set here from the injected clock. */
  async sign(claims: JWTPayload, options: SignOptions): Promise<string> {
    const key = await this.#deps.keys.activeKey();
    const now = Math.floor(this.#deps.clock.now() / 1000);
    const jwt = new SignJWT({ ...claims })
      .setProtectedHeader({
        alg: key.alg,
        kid: key.kid,
        ...(options.typ === undefined ? {} : { typ: options.typ }),
      })
      .setIssuer(this.#deps.issuer)
      .setIssuedAt(now)
      .setExpirationTime(now + options.expiresInSeconds)
      .setJti(claims.jti ?? this.#deps.ids.id('jti'));
    if (options.subject !== undefined) jwt.setSubject(options.subject);
    if (options.audience !== undefined) jwt.setAudience(options.audience);
    return jwt.sign(key.privateKey);
  }

  /**
   * Verifies signature (published keys only, RS256 only), issuer, audience, expiry and not-before with one
   * minute of skew. An invalid token is an expected outcome: the result is null, never a throw.
   */
  async verify(token: string, options: VerifyOptions): Promise<JWTPayload | null> {
    try {
      const { payload } = await jwtVerify(
        token,
        async (header) => {
          const key =
            header.kid === undefined ? undefined : await this.#deps.keys.verificationKey(header.kid);
          if (key === undefined) throw new Error('unknown key');
          return key;
        },
        {
          issuer: this.#deps.issuer,
          audience: options.audience,
          algorithms: ['RS256'],
          clockTolerance: CLOCK_SKEW_SECONDS,
          currentDate: new Date(this.#deps.clock.now()),
          requiredClaims: ['exp', 'iat'],
          ...(options.typ === undefined ? {} : { typ: options.typ }),
        },
      );
      return payload;
    } catch {
      return null;
    }
  }
}

import { compactVerify } from 'jose';
import { SvcUnavailableError } from '../../kernel/errors.js';
import { publishedKey } from '../keys/published-key.js';
import type { SigningKeys } from '../keys/signing-keys.js';

/** What an `id_token_hint` says once verified: the client it was issued to, the user and when. */
export interface IdTokenHint {
  /** The ID token's `aud`: the client_id it was issued to. */
  readonly clientId: string;
  /** The ID token's `sub`. */
  readonly userId: string;
  /** The ID token's `iat`, epoch seconds. */
  readonly issuedAt: number;
}

export interface IdTokenHintsDeps {
  readonly keys: Pick<SigningKeys, 'verificationKey'>;
  readonly issuer: string;
}

/** An ID token is about 1-2 KB; anything much longer is not one of ours and is not worth verifying. */
const MAX_HINT_LENGTH = 8192;

/**
 * Reads an `id_token_hint` (OpenID Connect RP-Initiated Logout 1.0 §2): an ID token this service issued,
 * its RS256 signature checked against the published keys and its `iss` against the issuer. Its expiry is
 * not checked: the specification asks the OP to accept an expired ID token as a hint. Svc's access
 * tokens are JWTs from the same keys; they carry `typ: at+jwt` and ID tokens no `typ`, so an access
 * token is never taken for a hint. Anything that fails is null, never a throw.
 */
export class IdTokenHints {
  readonly #issuer: string;
  readonly #publishedKey: ReturnType<typeof publishedKey>;

  constructor(deps: IdTokenHintsDeps) {
    this.#issuer = deps.issuer;
    this.#publishedKey = publishedKey(deps.keys);
  }

  async verify(token: string): Promise<IdTokenHint | null> {
    if (token.length === 0 || token.length > MAX_HINT_LENGTH) return null;
    let claims: unknown;
    try {
      const { payload, protectedHeader } = await compactVerify(token, this.#publishedKey, {
        algorithms: ['RS256'],
      });
      if (protectedHeader.typ !== undefined) return null;
      claims = JSON.parse(new TextDecoder().decode(payload));
    } catch (error) {
      // The key set could not be read: that is no verdict on the hint.
      if (error instanceof SvcUnavailableError) throw error;
      return null;
    }
    if (typeof claims !== 'object' || claims === null) return null;
    const { iss, aud, sub, iat } = claims as Record<string, unknown>;
    if (iss !== this.#issuer || typeof aud !== 'string' || typeof sub !== 'string') return null;
    if (typeof iat !== 'number' || !Number.isSafeInteger(iat)) return null;
    return { clientId: aud, userId: sub, issuedAt: iat };
  }
}

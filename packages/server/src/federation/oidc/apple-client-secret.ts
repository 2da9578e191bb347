import { importPKCS8, SignJWT } from 'jose';
import { HOUR_MS, MINUTE_MS, type Clock } from '../../kernel/clock.js';
import { sha256Hex } from '../../kernel/crypto.js';
import { LruMap } from '../../kernel/lru-map.js';
import type { OidcConnection } from './enabled-connections.js';
import { OidcRelyingPartyError } from './rp-errors.js';

/** The audience Apple requires in the client secret, whatever endpoints a connection overrides. */
export const APPLE_CLIENT_SECRET_AUDIENCE = 'https://appleid.apple.com';
/** How long a signed client secret is valid (Apple allows up to 6 months). */
export const APPLE_CLIENT_SECRET_LIFETIME_MS = HOUR_MS;
/** A secret is signed again once it has less than this left, so that none is sent about to expire. */
export const APPLE_CLIENT_SECRET_RENEW_BEFORE_MS = 10 * MINUTE_MS;

interface Signed {
  readonly secret: string;
  readonly expiresAt: number;
}

/**
 * Apple's client secret (docs/reference/federation.md "The relying party": Apple takes a short-lived signed
 * client secret): a JWT signed ES256 with the connection's PKCS#8 key, header `kid` the key id, `iss` the
 * team id, `sub` the services id (the connection's client id), `aud` https://appleid.apple.com, `iat` and
 * `exp` one hour later. Kept per node and signed again {@link APPLE_CLIENT_SECRET_RENEW_BEFORE_MS} before it
 * expires; a changed key, key id, team id or client id signs a new one at once.
 */
export class AppleClientSecrets {
  readonly #clock: Clock;
  readonly #signed = new LruMap<string, Signed>(1000);

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** The client secret to send with the connection's token request now. */
  async secretFor(connection: OidcConnection): Promise<string> {
    const apple = connection.profile.apple;
    const pem = connection.secrets().applePrivateKeyPem;
    if (apple === null || pem === null) {
      throw new OidcRelyingPartyError(
        'provider_configuration',
        'The Apple connection has no team id, key id or private key to sign its client secret with.',
      );
    }
    const key = [connection.id, connection.clientId, apple.teamId, apple.keyId, sha256Hex(pem)].join('\n');
    const now = this.#clock.now();
    const cached = this.#signed.get(key);
    if (cached !== undefined && now < cached.expiresAt - APPLE_CLIENT_SECRET_RENEW_BEFORE_MS)
      return cached.secret;

    let privateKey: CryptoKey;
    try {
      privateKey = await importPKCS8(pem, 'ES256');
    } catch {
      throw new OidcRelyingPartyError(
        'provider_configuration',
        "The Apple connection's private key is not an EC P-256 key in PKCS#8 PEM.",
      );
    }
    const iat = Math.floor(now / 1000);
    const expiresAt = (iat + APPLE_CLIENT_SECRET_LIFETIME_MS / 1000) * 1000;
    const secret = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: apple.keyId })
      .setIssuer(apple.teamId)
      .setSubject(connection.clientId)
      .setAudience(APPLE_CLIENT_SECRET_AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(expiresAt / 1000)
      .sign(privateKey);
    this.#signed.set(key, { secret, expiresAt });
    return secret;
  }
}

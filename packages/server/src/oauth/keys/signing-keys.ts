import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, exportPKCS8, generateKeyPair, type JWK } from 'jose';
import { DAY_MS, type Clock } from '../../kernel/clock.js';
import type { SecretBox } from '../../kernel/crypto.js';
import type { SecuritySettings } from '../../settings/security-settings.js';
import type { NewSigningKey, SigningKeyRecord, SigningKeyRepository } from './repository.js';
import { UnknownKidGate } from './unknown-kid-gate.js';

export interface SigningKeysDeps {
  readonly repository: SigningKeyRepository;
  readonly secretBox: SecretBox;
  readonly clock: Clock;
  readonly settings: () => Promise<SecuritySettings>;
  /** How long a loaded key set is trusted before it is read again; short, so other nodes' rotations show. */
  readonly cacheTtlMs?: number;
}

export interface ActiveSigningKey {
  readonly kid: string;
  readonly alg: 'RS256';
  readonly privateKey: KeyObject;
}

export interface PublishedJwks {
  readonly body: string;
  readonly etag: string;
}

interface Snapshot {
  readonly loadedAt: number;
  readonly active: ActiveSigningKey | undefined;
  readonly published: ReadonlyMap<string, KeyObject>;
  readonly jwks: PublishedJwks;
}

/**
 * Signing-key lifecycle (a key's state is derived from two columns, so it needs no status updates):
 *
 *   active (signs, published) --rotate--> grace (published, verifies) --after grace window--> retired
 *   (not published, kept) --after retired cleanup--> deleted
 *
 * Parsed KeyObjects and the JWKS body are cached per snapshot; PEM is never parsed per request.
 */
export class SigningKeys {
  readonly #deps: SigningKeysDeps;
  readonly #ttl: number;
  #snapshot: Snapshot | undefined;
  #loading: Promise<Snapshot> | undefined;
  readonly #unknownKids = new UnknownKidGate();

  constructor(deps: SigningKeysDeps) {
    this.#deps = deps;
    this.#ttl = deps.cacheTtlMs ?? 30_000;
  }

  /** Creates the first key when there is none (first start); safe when several nodes start at once. */
  async ensureActiveKey(): Promise<void> {
    const keys = await this.#deps.repository.list();
    if (!keys.some((k) => k.active)) {
      await this.#deps.repository.insertFirstActive(await this.#generate());
    }
    this.#snapshot = undefined;
  }

  /** Replaces the active key now; the old key stays published for the grace window. Returns the new kid. */
  async rotate(): Promise<string> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const current = (await this.#deps.repository.list()).find((k) => k.active);
      const next = await this.#generate();
      const done =
        current === undefined
          ? await this.#deps.repository.insertFirstActive(next)
          : await this.#deps.repository.rotate(current.kid, next, this.#deps.clock.now());
      this.#snapshot = undefined;
      if (done) return next.kid;
    }
    throw new Error('Signing key rotation kept racing with another node; try again.');
  }

  /**
   * The scheduled work: rotates when the active key is older than the rotation interval and deletes
   * keys whose grace window and retired cleanup period have both passed. Returns what it did.
   */
  async maintain(): Promise<{ rotated: string | undefined; deleted: number }> {
    const settings = await this.#deps.settings();
    const now = this.#deps.clock.now();
    const keys = await this.#deps.repository.list();
    const active = keys.find((k) => k.active);
    let rotated: string | undefined;
    if (active === undefined) {
      await this.ensureActiveKey();
    } else if (now - active.createdAt >= settings.signingKeyRotationIntervalDays * DAY_MS) {
      const next = await this.#generate();
      if (await this.#deps.repository.rotate(active.kid, next, now)) rotated = next.kid;
    }
    const cutoff =
      now - (settings.signingKeyGraceWindowDays + settings.signingKeyRetiredCleanupDays) * DAY_MS;
    const deleted = await this.#deps.repository.deleteRotatedOutBefore(cutoff);
    if (rotated !== undefined || deleted > 0) this.#snapshot = undefined;
    return { rotated, deleted };
  }

  /** The key that signs new tokens. */
  async activeKey(): Promise<ActiveSigningKey> {
    const snapshot = await this.#current();
    if (snapshot.active !== undefined) return snapshot.active;
    await this.ensureActiveKey();
    const reloaded = await this.#reload();
    if (reloaded.active === undefined) throw new Error('No active signing key could be created.');
    return reloaded.active;
  }

  /** A published (active or grace-window) public key; an unknown kid triggers one reload (another node rotated). */
  async verificationKey(kid: string): Promise<KeyObject | undefined> {
    const snapshot = await this.#current();
    const key = snapshot.published.get(kid);
    if (key !== undefined) return key;
    // Throttled so that forged headers cannot turn into a read per request (see UnknownKidGate).
    if (!this.#unknownKids.admit(this.#deps.clock.now())) return undefined;
    return (await this.#reload()).published.get(kid);
  }

  /** The JWKS document body (active and grace-window keys) and its ETag. */
  async jwks(): Promise<PublishedJwks> {
    return (await this.#current()).jwks;
  }

  async #current(): Promise<Snapshot> {
    const snapshot = this.#snapshot;
    if (snapshot !== undefined && this.#deps.clock.now() - snapshot.loadedAt < this.#ttl) return snapshot;
    return this.#reload();
  }

  #reload(): Promise<Snapshot> {
    this.#loading ??= this.#load().finally(() => {
      this.#loading = undefined;
    });
    return this.#loading;
  }

  async #load(): Promise<Snapshot> {
    const [keys, settings] = await Promise.all([this.#deps.repository.list(), this.#deps.settings()]);
    const now = this.#deps.clock.now();
    const graceMs = settings.signingKeyGraceWindowDays * DAY_MS;
    const published = keys.filter(
      (k) => k.active || (k.rotatedOutAt !== null && now < k.rotatedOutAt + graceMs),
    );
    const activeRecord = keys.find((k) => k.active);
    const snapshot: Snapshot = {
      loadedAt: now,
      active: activeRecord === undefined ? undefined : this.#open(activeRecord),
      published: new Map(
        published.map((k) => [
          k.kid,
          createPublicKey({ key: k.publicJwk as JWK & { kty: string }, format: 'jwk' }),
        ]),
      ),
      jwks: toJwks(published),
    };
    this.#snapshot = snapshot;
    return snapshot;
  }

  #open(record: SigningKeyRecord): ActiveSigningKey {
    const pem = this.#deps.secretBox.decrypt(record.privateKeySealed, `signing-key:${record.kid}`);
    return { kid: record.kid, alg: 'RS256', privateKey: createPrivateKey(pem) };
  }

  async #generate(): Promise<NewSigningKey> {
    const { publicKey, privateKey } = await generateKeyPair('RS256', {
      modulusLength: 2048,
      extractable: true,
    });
    const jwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(jwk, 'sha256');
    const pem = await exportPKCS8(privateKey);
    return {
      kid,
      alg: 'RS256',
      publicJwk: { kty: jwk.kty, n: jwk.n, e: jwk.e, kid, alg: 'RS256', use: 'sig' },
      privateKeySealed: this.#deps.secretBox.encrypt(pem, `signing-key:${kid}`),
      createdAt: this.#deps.clock.now(),
    };
  }
}

function toJwks(keys: readonly SigningKeyRecord[]): PublishedJwks {
  const body = JSON.stringify({ keys: keys.map((k) => k.publicJwk) });
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url')}"` };
}

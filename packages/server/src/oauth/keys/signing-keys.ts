import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, exportPKCS8, generateKeyPair, type JWK } from 'jose';
import { DAY_MS, type Clock } from '../../kernel/clock.js';
import type { SecretBox } from '../../kernel/crypto.js';
import { SvcUnavailableError } from '../../kernel/errors.js';
import { staticDocument, type StaticDocument } from '../../kernel/static-document.js';
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
  /** Waits before a paced read of the key set (UnknownKidGate); tests move a fake clock instead. */
  readonly wait?: (ms: number) => Promise<void>;
  /** A new RSA-2048 key pair (default: generated); tests take pairs generated once for the run. */
  readonly newKeyPair?: () => Promise<RsaKeyPair>;
}

/** As jose's generateKeyPair gives it (a CryptoKey) or node:crypto does (a KeyObject). */
export interface RsaKeyPair {
  readonly publicKey: CryptoKey | KeyObject;
  readonly privateKey: CryptoKey | KeyObject;
}

const generateRsaKeyPair = (): Promise<RsaKeyPair> =>
  generateKeyPair('RS256', { modulusLength: 2048, extractable: true });

export interface ActiveSigningKey {
  readonly kid: string;
  readonly alg: 'RS256';
  readonly privateKey: KeyObject;
}

interface Snapshot {
  /** Which read made it: a later read's snapshot is never replaced by an earlier one's. */
  readonly sequence: number;
  readonly loadedAt: number;
  readonly active: ActiveSigningKey | undefined;
  readonly published: ReadonlyMap<string, KeyObject>;
  /** The kids the JWKS publishes, in its order: the same kids make the same document. */
  readonly publishedKids: string;
  readonly jwks: StaticDocument;
}

/**
 * Signing-key lifecycle (a key's state is derived from two columns, so it needs no status updates):
 *
 *   active (signs, published) --rotate--> grace (published, verifies) --after grace window--> retired
 *   (not published, kept) --after retired cleanup--> deleted
 *
 * Parsed KeyObjects and the JWKS document are cached per snapshot; PEM is never parsed per request, and
 * the JWKS is serialized again only when the published keys change.
 */
export class SigningKeys {
  readonly #deps: SigningKeysDeps;
  readonly #ttl: number;
  readonly #wait: (ms: number) => Promise<void>;
  readonly #newKeyPair: () => Promise<RsaKeyPair>;
  #snapshot: Snapshot | undefined;
  /** The newest read of the key set in flight. */
  #loading: Promise<Snapshot> | undefined;
  #reads = 0;
  /** The first read that shows this node's own last change of the key set. */
  #validFrom = 0;
  /** The next read for unknown kids, while it still waits for the gate (it has not started reading). */
  #paced: Promise<Snapshot> | undefined;
  readonly #unknownKids = new UnknownKidGate();

  constructor(deps: SigningKeysDeps) {
    this.#deps = deps;
    this.#ttl = deps.cacheTtlMs ?? 30_000;
    this.#wait = deps.wait ?? waitFor;
    this.#newKeyPair = deps.newKeyPair ?? generateRsaKeyPair;
  }

  /** Creates the first key when there is none (first start); safe when several nodes start at once. */
  async ensureActiveKey(): Promise<void> {
    const keys = await this.#deps.repository.list();
    if (!keys.some((k) => k.active)) {
      await this.#deps.repository.insertFirstActive(await this.#generate());
    }
    this.#invalidate();
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
      this.#invalidate();
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
    if (rotated !== undefined || deleted > 0) this.#invalidate();
    return { rotated, deleted };
  }

  /** The key that signs new tokens. */
  async activeKey(): Promise<ActiveSigningKey> {
    const snapshot = await this.#current();
    if (snapshot.active !== undefined) return snapshot.active;
    await this.ensureActiveKey();
    const reloaded = await this.#read();
    if (reloaded.active === undefined) throw new Error('No active signing key could be created.');
    return reloaded.active;
  }

  /**
   * A published (active or grace-window) public key. A kid this node does not know may be another node's
   * new key: it is looked up in the read already in flight, if any, and otherwise in a read that starts
   * after it was seen, shared by every request waiting for one and paced by UnknownKidGate. So a token
   * signed with a key that another node has just made active is never refused.
   */
  async verificationKey(kid: string): Promise<KeyObject | undefined> {
    const key = (await this.#current()).published.get(kid);
    if (key !== undefined) return key;
    const inFlight = this.#loading;
    const joined = inFlight === undefined ? undefined : (await inFlight).published.get(kid);
    if (joined !== undefined) return joined;
    this.#paced ??= this.#pacedRead();
    return (await this.#paced).published.get(kid);
  }

  /**
   * The JWKS document (active and grace-window keys) with its ETag. While the database is away the node
   * keeps publishing the keys it has, so that resource servers go on validating tokens; signing and
   * validating here need the database anyway, and fail with it (rather than wait for it twice).
   */
  async jwks(): Promise<StaticDocument> {
    return (await this.#current(true)).jwks;
  }

  /**
   * The JWKS without waiting, while the key set this node read is within the cache lifetime; undefined
   * once it is due to be read again (then `jwks()`), so another node's rotation shows within that time.
   */
  currentJwks(): StaticDocument | undefined {
    return this.#fresh()?.jwks;
  }

  #fresh(): Snapshot | undefined {
    const snapshot = this.#snapshot;
    return snapshot !== undefined && this.#deps.clock.now() - snapshot.loadedAt < this.#ttl
      ? snapshot
      : undefined;
  }

  async #current(staleIfUnavailable = false): Promise<Snapshot> {
    const fresh = this.#fresh();
    if (fresh !== undefined) return fresh;
    const snapshot = this.#snapshot;
    try {
      return await (this.#loading ?? this.#read());
    } catch (error) {
      if (staleIfUnavailable && snapshot !== undefined && error instanceof SvcUnavailableError)
        return snapshot;
      throw error;
    }
  }

  /** This node changed the key set: reads that started before cannot show it. */
  #invalidate(): void {
    this.#snapshot = undefined;
    this.#loading = undefined;
    this.#validFrom = this.#reads + 1;
  }

  async #pacedRead(): Promise<Snapshot> {
    await this.#wait(this.#unknownKids.waitMs(this.#deps.clock.now()));
    // From here on, a newly unknown kid needs a read that starts after it: the next paced one.
    this.#paced = undefined;
    this.#unknownKids.reloading(this.#deps.clock.now());
    return this.#read();
  }

  /** Starts a read of the key set; it becomes the one in flight. */
  #read(): Promise<Snapshot> {
    const loading = this.#load(++this.#reads).finally(() => {
      if (this.#loading === loading) this.#loading = undefined;
    });
    this.#loading = loading;
    return loading;
  }

  async #load(sequence: number): Promise<Snapshot> {
    const [keys, settings] = await Promise.all([this.#deps.repository.list(), this.#deps.settings()]);
    const now = this.#deps.clock.now();
    const graceMs = settings.signingKeyGraceWindowDays * DAY_MS;
    const published = keys.filter(
      (k) => k.active || (k.rotatedOutAt !== null && now < k.rotatedOutAt + graceMs),
    );
    const activeRecord = keys.find((k) => k.active);
    const publishedKids = published.map((k) => k.kid).join(' ');
    const previous = this.#snapshot;
    const snapshot: Snapshot = {
      sequence,
      loadedAt: now,
      active: activeRecord === undefined ? undefined : this.#open(activeRecord),
      published: new Map(
        published.map((k) => [
          k.kid,
          createPublicKey({ key: k.publicJwk as JWK & { kty: string }, format: 'jwk' }),
        ]),
      ),
      publishedKids,
      jwks:
        previous?.publishedKids === publishedKids
          ? previous.jwks
          : staticDocument({ keys: published.map((k) => k.publicJwk) }),
    };
    const newest = this.#snapshot === undefined || this.#snapshot.sequence < sequence;
    if (newest && sequence >= this.#validFrom) this.#snapshot = snapshot;
    return snapshot;
  }

  #open(record: SigningKeyRecord): ActiveSigningKey {
    const pem = this.#deps.secretBox.decrypt(record.privateKeySealed, `signing-key:${record.kid}`);
    return { kid: record.kid, alg: 'RS256', privateKey: createPrivateKey(pem) };
  }

  async #generate(): Promise<NewSigningKey> {
    const { publicKey, privateKey } = await this.#newKeyPair();
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

function waitFor(ms: number): Promise<void> {
  return ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms));
}

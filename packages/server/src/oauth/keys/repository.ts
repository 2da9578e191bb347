/** A stored signing key; the private key stays sealed until the key service opens it. */
export interface SigningKeyRecord {
  readonly kid: string;
  readonly alg: 'RS256';
  readonly publicJwk: Readonly<Record<string, unknown>>;
  readonly privateKeySealed: string;
  readonly active: boolean;
  readonly createdAt: number;
  readonly rotatedOutAt: number | null;
}

export interface NewSigningKey {
  readonly kid: string;
  readonly alg: 'RS256';
  readonly publicJwk: Readonly<Record<string, unknown>>;
  readonly privateKeySealed: string;
  readonly createdAt: number;
}

/** Storage of signing keys. At most one key is active; the database enforces it across nodes. */
export interface SigningKeyRepository {
  list(): Promise<SigningKeyRecord[]>;
  /** Inserts the first active key; false when another node already has an active key. */
  insertFirstActive(key: NewSigningKey): Promise<boolean>;
  /**
   * Moves `currentKid` out and makes `next` active, in one transaction; false (and nothing written) when
   * `currentKid` is no longer the active key because another node rotated first.
   */
  rotate(currentKid: string, next: NewSigningKey, now: number): Promise<boolean>;
  /** Deletes keys rotated out before the cutoff; returns how many. */
  deleteRotatedOutBefore(cutoff: number): Promise<number>;
}

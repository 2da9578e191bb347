import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { machineTestFolder } from './machine-test-folder.js';

/** An RSA-2048 key pair, as node:crypto and jose take it. */
export interface RsaTestKeyPair {
  readonly publicKey: KeyObject;
  readonly privateKey: KeyObject;
}

/** How many distinct pairs the pool holds: more than any one test asks for. */
const POOL_SIZE = 12;

const fileName = (index: number) => `${index}.pem`;

function generate(staging: string): void {
  for (let index = 0; index < POOL_SIZE; index += 1) {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    writeFileSync(join(staging, fileName(index)), privateKey.export({ type: 'pkcs8', format: 'pem' }));
  }
}

let pool: readonly RsaTestKeyPair[] | undefined;

/**
 * RSA-2048 key pairs made once (kept in a temp folder for later runs and the other workers) and read
 * once per worker: distinct pairs, always in the same order.
 */
export function rsaTestKeys(): readonly RsaTestKeyPair[] {
  if (pool === undefined) {
    const folder = machineTestFolder('svc-rsa-test-keys-v1', fileName(POOL_SIZE - 1), generate);
    pool = Array.from({ length: POOL_SIZE }, (_, index) => {
      const privateKey = createPrivateKey(readFileSync(join(folder, fileName(index)), 'utf8'));
      return { privateKey, publicKey: createPublicKey(privateKey) };
    });
  }
  return pool;
}

let taken = 0;

/**
 * The next pair of the pool, round the pool: a stand-in for generating one where a test needs keys that
 * differ from the last few it made (SigningKeys' `newKeyPair`, a peer's signing key, a forger's).
 */
export function nextRsaTestKeyPair(): RsaTestKeyPair {
  const keys = rsaTestKeys();
  const pair = keys[taken % keys.length];
  taken += 1;
  if (pair === undefined) throw new Error('The RSA test key pool is empty.');
  return pair;
}

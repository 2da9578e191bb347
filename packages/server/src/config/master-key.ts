import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SvcConfigError } from '../kernel/errors.js';
import type { SvcConfig } from './resolve.js';

export const MASTER_KEY_FILE = 'secret.key';

/** Parses SVC_SECRET_KEY: 32 bytes written as 64 hex digits, base64 or base64url. */
export function parseMasterKey(value: string): Buffer {
  const text = value.trim();
  const bytes = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (bytes.length !== 32) {
    throw new SvcConfigError(
      'SVC_SECRET_KEY must be 32 random bytes as 64 hex digits or base64; generate one with `openssl rand -hex 32`.',
    );
  }
  return bytes;
}

/**
 * The master key that seals secrets at rest. Given by SVC_SECRET_KEY, or generated once into the data
 * folder (file mode 0600) for a single node. An in-memory database gets a throwaway key of its own life.
 * Several nodes on PostgreSQL must share one key, so production on PostgreSQL requires SVC_SECRET_KEY.
 */
export function loadMasterKey(config: SvcConfig): Buffer {
  if (config.secretKey !== undefined) return parseMasterKey(config.secretKey);
  if (config.database.kind === 'sqlite' && config.database.filename === ':memory:') return randomBytes(32);
  if (config.database.kind === 'postgres' && !config.development) {
    throw new SvcConfigError(
      'SVC_SECRET_KEY is required in production on PostgreSQL: every node must share the same master key. ' +
        'Generate one with `openssl rand -hex 32` and give it to every node.',
    );
  }
  const path = join(config.dataDir, MASTER_KEY_FILE);
  try {
    return parseMasterKey(readFileSync(path, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  try {
    writeFileSync(path, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return parseMasterKey(readFileSync(path, 'utf8'));
    throw error;
  }
}

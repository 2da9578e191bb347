import { hash, verify, type Algorithm } from '@node-rs/argon2';

// `Algorithm` is an ambient const enum, which isolatedModules cannot read at runtime: 2 is Argon2id.
const ARGON2ID: Algorithm = 2;

/** OWASP Password Storage Cheat Sheet parameters for argon2id: m=19 MiB, t=2, p=1 (DECISIONS.md). */
export const PASSWORD_HASH_OPTIONS = Object.freeze({
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
});

/** Hashes a password with argon2id and a fresh random salt; the result is a PHC string (`$argon2id$…`). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, PASSWORD_HASH_OPTIONS);
}

/**
 * True when `password` matches the stored PHC hash. A malformed or foreign hash is a mismatch, not an
 * error, so that a damaged row can never turn a sign-in into a 500.
 */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

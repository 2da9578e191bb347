import { hash, verify, type Algorithm } from '@node-rs/argon2';
import type { PasswordHashCost } from './password-hash-cost.js';

// `Algorithm` is an ambient const enum, which isolatedModules cannot read at runtime: 2 is Argon2id.
const ARGON2ID: Algorithm = 2;

/** Hashes a password with argon2id and a fresh random salt; the result is a PHC string (`$argon2id$…`). */
export type HashPassword = (password: string) => Promise<string>;

/** The argon2id hash at `cost` (config.passwordHashing; the OWASP parameters by default). */
export function passwordHashing(cost: PasswordHashCost): HashPassword {
  const options = { algorithm: ARGON2ID, ...cost, parallelism: 1 };
  return (password) => hash(password, options);
}

/**
 * True when `password` matches the stored PHC hash, at the cost the hash names. A malformed or foreign
 * hash is a mismatch, not an error, so that a damaged row can never turn a sign-in into a 500.
 */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

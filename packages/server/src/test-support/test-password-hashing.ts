import { passwordHashing } from '../directory/password-hasher.js';

/**
 * argon2id's cheapest legal cost (8 KiB, one pass), which development mode allows: a test hashes and
 * verifies a password in well under a millisecond instead of tens. Only the tests of the production
 * cost itself (directory/password-hasher.test.ts) hash at DEFAULT_PASSWORD_HASH_COST.
 */
export const TEST_PASSWORD_HASHING = Object.freeze({ memoryCost: 8, timeCost: 1 });

/** The hash function a test Svc uses, for unit tests that construct a directory service themselves. */
export const testHashPassword = passwordHashing(TEST_PASSWORD_HASHING);

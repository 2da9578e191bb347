import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../config/resolve.js';
import { SvcConfigError } from '../kernel/errors.js';
import { DEFAULT_PASSWORD_HASH_COST } from './password-hash-cost.js';
import { passwordHashing, verifyPassword } from './password-hasher.js';

const hashPassword = passwordHashing(DEFAULT_PASSWORD_HASH_COST);

describe('password hasher', () => {
  it('hashes with argon2id at the OWASP parameters and a fresh salt', async () => {
    const first = await hashPassword('correct horse battery');
    const second = await hashPassword('correct horse battery');
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(first).not.toBe(second);
    expect(await verifyPassword(first, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(first, 'correct horse batterY')).toBe(false);
  });

  it('treats a malformed hash as a mismatch', async () => {
    expect(await verifyPassword('not-a-hash', 'x')).toBe(false);
    expect(await verifyPassword('', 'x')).toBe(false);
  });

  it('verifies off the main thread: the event loop turns while a verification runs', async () => {
    const stored = await hashPassword('correct horse battery');
    let settled = false;
    const verifying = verifyPassword(stored, 'correct horse battery').then((ok) => {
      settled = true;
      return ok;
    });
    // A verification computed on the main thread would be settled before the next loop turn.
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    expect(await verifying).toBe(true);
  });
});

describe('the passwordHashing option', () => {
  const resolve = (passwordHashing: { memoryCost?: number; timeCost?: number }, development: boolean) =>
    resolveConfig({ passwordHashing, development }, 'production');

  it('defaults to the OWASP parameters in production and in development', () => {
    expect(resolveConfig({}, 'production').passwordHashing).toEqual({ memoryCost: 19_456, timeCost: 2 });
    expect(resolveConfig({}, 'development').passwordHashing).toEqual({ memoryCost: 19_456, timeCost: 2 });
  });

  it('takes any OWASP minimum or more in production, and nothing weaker', () => {
    expect(resolve({ memoryCost: 47_104, timeCost: 1 }, false).passwordHashing).toEqual({
      memoryCost: 47_104,
      timeCost: 1,
    });
    expect(resolve({ memoryCost: 7_168, timeCost: 5 }, false).passwordHashing.timeCost).toBe(5);
    expect(resolve({ timeCost: 3 }, false).passwordHashing).toEqual({ memoryCost: 19_456, timeCost: 3 });
    expect(() => resolve({ memoryCost: 19_455 }, false)).toThrow(SvcConfigError);
    expect(() => resolve({ memoryCost: 47_103, timeCost: 1 }, false)).toThrow(/only in development mode/);
    expect(() => resolve({ memoryCost: 8, timeCost: 1 }, false)).toThrow(/weaker than every OWASP/);
  });

  it("allows down to argon2id's floor in development mode, never below it or fractional", async () => {
    const cheap = resolve({ memoryCost: 8, timeCost: 1 }, true).passwordHashing;
    const stored = await passwordHashing(cheap)('correct horse battery');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=8,t=1,p=1\$/);
    expect(await verifyPassword(stored, 'correct horse battery')).toBe(true);
    expect(() => resolve({ memoryCost: 7 }, true)).toThrow(/memoryCost of at least 8/);
    expect(() => resolve({ timeCost: 0 }, true)).toThrow(/timeCost of at least 1/);
    expect(() => resolve({ memoryCost: 19_456.5 }, true)).toThrow(/whole numbers/);
  });
});

import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password-hasher.js';

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

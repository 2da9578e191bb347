import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { base64UrlEncode, computeCodeChallenge, createCodeVerifier, createPkcePair } from './pkce.js';

const nodeChallenge = (verifier: string) =>
  createHash('sha256').update(verifier, 'ascii').digest('base64url');

describe('PKCE', () => {
  it('makes 43-character base64url verifiers that do not repeat', () => {
    const verifiers = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const verifier = createCodeVerifier();
      expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
      verifiers.add(verifier);
    }
    expect(verifiers.size).toBe(200);
  });

  it('computes the RFC 7636 appendix B challenge', async () => {
    // The verifier and challenge printed in RFC 7636 appendix B.
    const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
    expect(await computeCodeChallenge(verifier)).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    expect(await computeCodeChallenge(verifier)).toBe(nodeChallenge(verifier));
  });

  it('pairs a verifier with its S256 challenge, as node:crypto computes it', async () => {
    const pair = await createPkcePair();
    expect(pair.codeChallengeMethod).toBe('S256');
    expect(pair.codeChallenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(pair.codeChallenge).toBe(nodeChallenge(pair.codeVerifier));
  });

  it('refuses verifiers that RFC 7636 forbids', async () => {
    await expect(computeCodeChallenge('short')).rejects.toThrow(RangeError);
    await expect(computeCodeChallenge('a'.repeat(129))).rejects.toThrow(RangeError);
    await expect(computeCodeChallenge(`${'a'.repeat(42)}+`)).rejects.toThrow(RangeError);
    expect(await computeCodeChallenge('a'.repeat(128))).toBe(nodeChallenge('a'.repeat(128)));
  });

  it('encodes base64url without padding, like Buffer does', () => {
    for (const length of [0, 1, 2, 3, 31, 32, 33]) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 97 + 251) % 256);
      expect(base64UrlEncode(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
    }
  });
});

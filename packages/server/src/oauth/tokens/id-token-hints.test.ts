import type { KeyObject } from 'node:crypto';
import { SignJWT, type JWTPayload } from 'jose';
import { describe, expect, it } from 'vitest';
import { rsaTestKeys } from '../../test-support/rsa-test-keys.js';
import { IdTokenHints } from './id-token-hints.js';

const ISSUER = 'https://id.example.com/svc/auth';
const KID = 'k1';
const NOW = Math.floor(Date.UTC(2030, 0, 1) / 1000);

describe('IdTokenHints', () => {
  const [first, second] = rsaTestKeys();
  const { privateKey: published, publicKey } = first!;
  const unpublished = second!.privateKey;
  const hints = new IdTokenHints({
    keys: { verificationKey: (kid) => Promise.resolve(kid === KID ? publicKey : undefined) },
    issuer: ISSUER,
  });

  const sign = (
    claims: Readonly<Record<string, unknown>>,
    header: { kid?: string; typ?: string } = {},
    key: KeyObject = published,
  ) =>
    new SignJWT({ iss: ISSUER, sub: 'usr_1', aud: 'web', iat: NOW, exp: NOW + 900, ...claims } as JWTPayload)
      .setProtectedHeader({ alg: 'RS256', kid: KID, ...header })
      .sign(key);

  it('reads an ID token of this issuer, long expired or not', async () => {
    expect(await hints.verify(await sign({}))).toEqual({ clientId: 'web', userId: 'usr_1', issuedAt: NOW });
    expect(await hints.verify(await sign({ exp: 1 }))).toEqual({
      clientId: 'web',
      userId: 'usr_1',
      issuedAt: NOW,
    });
  });

  it.each<[string, Readonly<Record<string, unknown>>, { kid?: string; typ?: string }]>([
    ['another issuer', { iss: 'https://elsewhere.example.com' }, {}],
    ['an access token (typ at+jwt)', {}, { typ: 'at+jwt' }],
    ['a key that is not published', {}, { kid: 'gone' }],
    ['several audiences', { aud: ['web', 'other'] }, {}],
    ['no subject', { sub: undefined }, {}],
    ['no iat', { iat: undefined }, {}],
  ])('refuses %s', async (_name, claims, header) => {
    expect(await hints.verify(await sign(claims, header))).toBeNull();
  });

  it('refuses a signature of another key, garbage and oversized input', async () => {
    expect(await hints.verify(await sign({}, {}, unpublished))).toBeNull();
    expect(await hints.verify('not.a.jwt')).toBeNull();
    expect(await hints.verify('')).toBeNull();
    expect(await hints.verify(await sign({ padding: 'a'.repeat(9000) }))).toBeNull();
  });
});

import { verify, type KeyObject } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectedAtHash } from '../../test-support/oauth-http.js';
import { rsaTestKeys } from '../../test-support/rsa-test-keys.js';
import { SigningThread } from './signing-thread.js';

const verifies = (publicKey: KeyObject, input: string, signature: string) =>
  verify('sha256', Buffer.from(input), publicKey, Buffer.from(signature, 'base64url'));

/** A compact ID token's header and claims, once its signature has been checked against `publicKey`. */
const verifiedIdToken = (publicKey: KeyObject, idToken: string) => {
  const [header, payload, signature] = idToken.split('.') as [string, string, string];
  expect(verifies(publicKey, `${header}.${payload}`, signature)).toBe(true);
  return { header, claims: JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown };
};

describe('signing thread', () => {
  let thread: SigningThread;
  /**
   * Ten distinct RSA key pairs of the run's pool (generation is the slow part): each test gets a new
   * thread, which has seen none of them.
   */
  const pairs = rsaTestKeys().slice(0, 10);
  const rsaKeyPair = () => pairs[0]!;
  beforeEach(() => {
    thread = new SigningThread({ cores: () => 2 });
  });
  afterEach(async () => {
    await thread.close();
  });

  it('answers each input with its RS256 signature, many in flight', async () => {
    const { privateKey, publicKey } = rsaKeyPair();
    const inputs = Array.from({ length: 20 }, (_, i) => `header.payload-${String(i)}`);
    const signatures = await Promise.all(inputs.map((input) => thread.signRs256(privateKey, input)));
    inputs.forEach((input, i) => {
      expect(verifies(publicKey, input, signatures[i]!)).toBe(true);
    });
    expect(verifies(publicKey, inputs[1]!, signatures[0]!)).toBe(false);
  });

  it('signs with the key it is given, and again with a key the thread has since dropped', async () => {
    for (const { privateKey, publicKey } of pairs) {
      expect(verifies(publicKey, 'a.b', await thread.signRs256(privateKey, 'a.b'))).toBe(true);
    }
    // The thread keeps fewer keys than that: the first one is sent again when the thread asks for it.
    const [first, second] = pairs as [(typeof pairs)[0], (typeof pairs)[0]];
    const [again, other] = await Promise.all([
      thread.signRs256(first.privateKey, 'c.d'),
      thread.signRs256(second.privateKey, 'c.d'),
    ]);
    expect(verifies(first.publicKey, 'c.d', again)).toBe(true);
    expect(verifies(second.publicKey, 'c.d', other)).toBe(true);
  });

  it('signs an ID token after an access token in one job, bound to it by at_hash', async () => {
    const { privateKey, publicKey } = rsaKeyPair();
    const header = Buffer.from('{"alg":"RS256","kid":"k1"}').toString('base64url');
    const payload = '{"sub":"usr_1","nonce":"n-ü"}';
    const signed = await thread.signWithIdToken(privateKey, 'access.input', { header, payload });

    expect(verifies(publicKey, 'access.input', signed.signature)).toBe(true);
    const idToken = verifiedIdToken(publicKey, signed.idToken);
    expect(idToken.header).toBe(header);
    expect(idToken.claims).toEqual({
      sub: 'usr_1',
      nonce: 'n-ü',
      at_hash: expectedAtHash(`access.input.${signed.signature}`),
    });
  });

  it('signs the ID token too when the thread had dropped the key', async () => {
    for (const { privateKey } of pairs) await thread.signRs256(privateKey, 'a.b');
    const { privateKey, publicKey } = pairs[0]!;
    const signed = await thread.signWithIdToken(privateKey, 'a.b', { header: 'h', payload: '{"sub":"s"}' });
    verifiedIdToken(publicKey, signed.idToken);
  });

  it('signs on the calling thread while the thread is four jobs behind, and gives it work again after', async () => {
    const { privateKey, publicKey } = rsaKeyPair();
    const header = Buffer.from('{"alg":"RS256","kid":"k1"}').toString('base64url');
    // Posted in one tick: the new thread has not started, let alone finished a job, so the first
    // four go to it and the rest are signed here.
    const pending = Array.from({ length: 7 }, (_, i) =>
      thread.signWithIdToken(privateKey, `access.${String(i)}`, { header, payload: `{"n":${String(i)}}` }),
    );
    expect(thread.counts).toEqual({ thread: 4, caller: 3 });
    const signed = await Promise.all(pending);
    signed.forEach(({ signature, idToken }, i) => {
      expect(verifies(publicKey, `access.${String(i)}`, signature)).toBe(true);
      expect(verifiedIdToken(publicKey, idToken).claims).toEqual({
        n: i,
        at_hash: expectedAtHash(`access.${String(i)}.${signature}`),
      });
    });

    expect(verifies(publicKey, 'a.b', await thread.signRs256(privateKey, 'a.b'))).toBe(true);
    expect(thread.counts).toEqual({ thread: 5, caller: 3 });
  });

  it('signs everything on the calling thread in a process that may use one core only', async () => {
    const single = new SigningThread({ cores: () => 1 });
    try {
      const { privateKey, publicKey } = rsaKeyPair();
      const inputs = Array.from({ length: 6 }, (_, i) => `header.payload-${String(i)}`);
      const signatures = await Promise.all(inputs.map((input) => single.signRs256(privateKey, input)));
      inputs.forEach((input, i) => {
        expect(verifies(publicKey, input, signatures[i]!)).toBe(true);
      });
      const header = Buffer.from('{"alg":"RS256","kid":"k1"}').toString('base64url');
      const signed = await single.signWithIdToken(privateKey, 'a.b', { header, payload: '{"n":1}' });
      expect(verifiedIdToken(publicKey, signed.idToken).claims).toEqual({
        n: 1,
        at_hash: expectedAtHash(`a.b.${signed.signature}`),
      });
      expect(single.counts).toEqual({ thread: 0, caller: 7 });
    } finally {
      await single.close();
    }
  });

  it('rejects a key that cannot sign on either thread', async () => {
    const { privateKey, publicKey } = rsaKeyPair();
    const attempts = Array.from({ length: 5 }, () => thread.signRs256(publicKey, 'a.b'));
    expect(thread.counts).toEqual({ thread: 4, caller: 1 });
    for (const outcome of await Promise.allSettled(attempts)) {
      expect(outcome).toMatchObject({ status: 'rejected', reason: { message: /^RS256 signing failed/ } });
    }
    expect(verifies(publicKey, 'a.b', await thread.signRs256(privateKey, 'a.b'))).toBe(true);
  });

  it('rejects a key that cannot sign, and keeps signing afterwards', async () => {
    const { privateKey, publicKey } = rsaKeyPair();
    await expect(thread.signRs256(publicKey, 'a.b')).rejects.toThrow(/RS256 signing failed/);
    expect(verifies(publicKey, 'a.b', await thread.signRs256(privateKey, 'a.b'))).toBe(true);
  });

  it('fails the signatures in flight when it is closed', async () => {
    const { privateKey } = rsaKeyPair();
    const pending = expect(thread.signRs256(privateKey, 'a.b')).rejects.toThrow(/closed/);
    await thread.close();
    await pending;
  });

  it('refuses to sign once closed', async () => {
    const { privateKey } = rsaKeyPair();
    await thread.signRs256(privateKey, 'a.b');
    await thread.close();
    await expect(thread.signRs256(privateKey, 'a.b')).rejects.toThrow(/closed/);
  });
});

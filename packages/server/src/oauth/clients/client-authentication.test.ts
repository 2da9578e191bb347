import { describe, expect, it } from 'vitest';
import { clientFinder, clientRecord, TEST_CLIENT_SECRET } from '../../test-support/client-record.js';
import { sha256Hex } from '../../kernel/crypto.js';
import {
  authenticateClient,
  type ClientCredentialsInput,
  hasClientCredentials,
  parseBasic,
} from './client-authentication.js';

const SECRET = TEST_CLIENT_SECRET;
const publicClient = clientRecord({ clientId: 'spa' });
const basicClient = clientRecord({ clientId: 'backend', tokenEndpointAuthMethod: 'client_secret_basic' });
const postClient = clientRecord({ clientId: 'poster', tokenEndpointAuthMethod: 'client_secret_post' });
const inactiveClient = clientRecord({
  clientId: 'retired',
  tokenEndpointAuthMethod: 'client_secret_basic',
  active: false,
});
// Reserved characters in both parts (RFC 6749 §2.3.1: form-urlencoded before Base64).
const RESERVED_SECRET = 'p:a%s+s w/ö';
const reservedClient = clientRecord({
  clientId: 'a:b',
  tokenEndpointAuthMethod: 'client_secret_basic',
  clientSecretHash: sha256Hex(RESERVED_SECRET),
});
const clients = [publicClient, basicClient, postClient, inactiveClient, reservedClient];

function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

function basic(id: string, secret: string, encode = true): string {
  const pair = encode ? `${formEncode(id)}:${formEncode(secret)}` : `${id}:${secret}`;
  return `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
}

function authenticate(input: ClientCredentialsInput) {
  return authenticateClient(input, clientFinder(...clients));
}

describe('authenticateClient: success', () => {
  it.each<[string, ClientCredentialsInput, string, string]>([
    ['a public client by client_id alone (none)', { bodyClientId: 'spa' }, 'spa', 'none'],
    [
      'client_secret_basic',
      { authorizationHeader: basic('backend', SECRET) },
      'backend',
      'client_secret_basic',
    ],
    [
      'client_secret_basic with the same client_id in the body',
      { authorizationHeader: basic('backend', SECRET), bodyClientId: 'backend' },
      'backend',
      'client_secret_basic',
    ],
    [
      'client_secret_basic with a lower-case scheme and extra spaces',
      { authorizationHeader: basic('backend', SECRET).replace('Basic ', 'basic   ') },
      'backend',
      'client_secret_basic',
    ],
    [
      'client_secret_basic with reserved characters, form-urlencoded (a:b as a%3Ab)',
      { authorizationHeader: basic('a:b', RESERVED_SECRET) },
      'a:b',
      'client_secret_basic',
    ],
    [
      'client_secret_post',
      { bodyClientId: 'poster', bodyClientSecret: SECRET },
      'poster',
      'client_secret_post',
    ],
    [
      'an empty body secret counts as omitted (RFC 6749 §3.2)',
      { bodyClientId: 'spa', bodyClientSecret: '' },
      'spa',
      'none',
    ],
  ])('%s', async (_name, input, clientId, method) => {
    const result = await authenticate(input);
    expect(result).toMatchObject({ ok: true, method });
    expect(result.ok && result.client.clientId).toBe(clientId);
  });

  it('encodes a:b as a%3Ab in the Basic credentials', () => {
    expect(Buffer.from(basic('a:b', 'x').slice(6), 'base64').toString()).toBe('a%3Ab:x');
  });
});

describe('authenticateClient: failures', () => {
  it.each<[string, ClientCredentialsInput, string, number, string]>([
    ['no credentials at all', {}, 'invalid_client', 401, 'missing_credentials'],
    [
      'a secret without a client_id',
      { bodyClientSecret: SECRET },
      'invalid_client',
      401,
      'missing_credentials',
    ],
    ['an unknown client', { bodyClientId: 'nope' }, 'invalid_client', 401, 'unknown_client'],
    [
      'an unknown client with a secret',
      { bodyClientId: 'nope', bodyClientSecret: SECRET },
      'invalid_client',
      401,
      'unknown_client',
    ],
    [
      'an inactive client with its secret',
      { authorizationHeader: basic('retired', SECRET) },
      'invalid_client',
      401,
      'inactive_client',
    ],
    [
      'a wrong Basic secret',
      { authorizationHeader: basic('backend', 'wrong') },
      'invalid_client',
      401,
      'secret_mismatch',
    ],
    [
      'an empty Basic secret',
      { authorizationHeader: basic('backend', '') },
      'invalid_client',
      401,
      'secret_mismatch',
    ],
    [
      'a wrong post secret',
      { bodyClientId: 'poster', bodyClientSecret: 'wrong' },
      'invalid_client',
      401,
      'secret_mismatch',
    ],
    [
      'a secret differing only in case',
      { bodyClientId: 'poster', bodyClientSecret: SECRET.toUpperCase() },
      'invalid_client',
      401,
      'secret_mismatch',
    ],
    [
      'a public client that sends a secret in the body',
      { bodyClientId: 'spa', bodyClientSecret: 'anything' },
      'invalid_client',
      401,
      'method_mismatch',
    ],
    [
      'a public client that uses Basic',
      { authorizationHeader: basic('spa', 'anything') },
      'invalid_client',
      401,
      'method_mismatch',
    ],
    [
      'a public client that uses Basic with an empty secret',
      { authorizationHeader: basic('spa', '') },
      'invalid_client',
      401,
      'method_mismatch',
    ],
    [
      'a basic client that posts its secret',
      { bodyClientId: 'backend', bodyClientSecret: SECRET },
      'invalid_client',
      401,
      'method_mismatch',
    ],
    [
      'a post client that uses Basic',
      { authorizationHeader: basic('poster', SECRET) },
      'invalid_client',
      401,
      'method_mismatch',
    ],
    [
      'a confidential client with client_id alone',
      { bodyClientId: 'backend' },
      'invalid_client',
      401,
      'method_mismatch',
    ],
    [
      'Basic credentials that were not form-urlencoded (a:b reads as client a)',
      { authorizationHeader: basic('a:b', 'plain-secret', false) },
      'invalid_client',
      401,
      'unknown_client',
    ],
    ['a Bearer header', { authorizationHeader: 'Bearer abc' }, 'invalid_client', 401, 'malformed'],
    ['an empty Authorization header', { authorizationHeader: '' }, 'invalid_client', 401, 'malformed'],
    ['Basic without credentials', { authorizationHeader: 'Basic' }, 'invalid_client', 401, 'malformed'],
    ['Basic with invalid Base64', { authorizationHeader: 'Basic ***' }, 'invalid_client', 401, 'malformed'],
    [
      'Basic with unpadded Base64',
      { authorizationHeader: 'Basic YWJjOmQ' },
      'invalid_client',
      401,
      'malformed',
    ],
    [
      'Basic without a colon',
      { authorizationHeader: `Basic ${Buffer.from('backend').toString('base64')}` },
      'invalid_client',
      401,
      'malformed',
    ],
    [
      'Basic with an empty client_id',
      { authorizationHeader: basic('', SECRET) },
      'invalid_client',
      401,
      'malformed',
    ],
    [
      'Basic with a broken percent escape',
      { authorizationHeader: basic('back%zz', SECRET, false) },
      'invalid_client',
      401,
      'malformed',
    ],
    [
      'Basic with invalid UTF-8',
      { authorizationHeader: `Basic ${Buffer.from([0x62, 0x3a, 0xff]).toString('base64')}` },
      'invalid_client',
      401,
      'malformed',
    ],
    ['a client_id with a NUL', { bodyClientId: 'spa\u0000' }, 'invalid_client', 401, 'malformed'],
    [
      'a client_id over 2048 characters',
      { bodyClientId: 'a'.repeat(2049) },
      'invalid_client',
      401,
      'malformed',
    ],
    [
      'Basic and a body secret together',
      { authorizationHeader: basic('backend', SECRET), bodyClientSecret: SECRET },
      'invalid_request',
      400,
      'multiple_methods',
    ],
    [
      'a body client_id that differs from the Basic one',
      { authorizationHeader: basic('backend', SECRET), bodyClientId: 'poster' },
      'invalid_request',
      400,
      'client_id_mismatch',
    ],
    ['a repeated client_id', { bodyClientId: ['spa', 'spa'] }, 'invalid_request', 400, 'malformed'],
    [
      'a repeated client_secret',
      { bodyClientId: 'poster', bodyClientSecret: [SECRET, SECRET] },
      'invalid_request',
      400,
      'malformed',
    ],
  ])('%s', async (_name, input, error, status, reason) => {
    const result = await authenticate(input);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ error, status });
    expect(result.reason).toBe(reason);
  });

  it('answers the same message for an unknown client, a wrong secret and a wrong method', async () => {
    const messages = await Promise.all(
      [
        { bodyClientId: 'nope', bodyClientSecret: SECRET },
        { bodyClientId: 'poster', bodyClientSecret: 'wrong' },
        { bodyClientId: 'backend', bodyClientSecret: SECRET },
        { authorizationHeader: basic('retired', SECRET) },
      ].map(async (input) => {
        const result = await authenticate(input);
        return result.ok ? 'authenticated' : result.error.description;
      }),
    );
    expect(new Set(messages)).toEqual(new Set(['Client authentication failed.']));
  });

  it('challenges with Basic only when the Authorization header was used (RFC 6749 §5.2)', async () => {
    const viaHeader = await authenticate({ authorizationHeader: basic('backend', 'wrong') });
    const viaBody = await authenticate({ bodyClientId: 'poster', bodyClientSecret: 'wrong' });
    expect(!viaHeader.ok && viaHeader.error.wwwAuthenticate).toBe('Basic realm="svc"');
    expect(!viaBody.ok && viaBody.error.wwwAuthenticate).toBeUndefined();
  });

  it('reports the presented client_id for the audit log, but not an unusable one', async () => {
    const wrong = await authenticate({ bodyClientId: 'poster', bodyClientSecret: 'wrong' });
    const malformed = await authenticate({ bodyClientId: 'x\u0000' });
    expect(!wrong.ok && wrong.clientId).toBe('poster');
    expect(!malformed.ok && malformed.clientId).toBeNull();
  });

  it('never looks up a malformed client_id', async () => {
    const finder = clientFinder(...clients);
    await authenticateClient({ bodyClientId: 'spa\n' }, finder);
    await authenticateClient({ authorizationHeader: 'Basic ***' }, finder);
    expect(finder.lookups).toEqual([]);
  });

  it('refuses a confidential client without a stored hash, even for the placeholder secret', async () => {
    const broken = clientRecord({
      clientId: 'broken',
      tokenEndpointAuthMethod: 'client_secret_post',
      clientSecretHash: null,
    });
    const result = await authenticateClient(
      { bodyClientId: 'broken', bodyClientSecret: 'svc: no client secret' },
      clientFinder(broken),
    );
    expect(result).toMatchObject({ ok: false, reason: 'secret_mismatch' });
  });
});

describe('parseBasic', () => {
  it('decodes + as a space and %XX as UTF-8 in both parts', () => {
    expect(parseBasic(`Basic ${Buffer.from('my+client:s%C3%B6cret+%2B').toString('base64')}`)).toEqual({
      clientId: 'my client',
      secret: 'söcret +',
    });
  });

  it('splits on the first colon only', () => {
    expect(parseBasic(`Basic ${Buffer.from('id:se:cret').toString('base64')}`)).toEqual({
      clientId: 'id',
      secret: 'se:cret',
    });
  });
});

describe('hasClientCredentials', () => {
  it.each<[ClientCredentialsInput, boolean]>([
    [{}, false],
    [{ bodyClientId: '' }, false],
    [{ bodyClientId: 'spa' }, true],
    [{ bodyClientSecret: 's' }, true],
    [{ authorizationHeader: 'Basic x' }, true],
  ])('%j → %s', (input, expected) => {
    expect(hasClientCredentials(input)).toBe(expected);
  });
});

describe('authenticateClient: either secret method (the direct helpers)', () => {
  const either = (input: ClientCredentialsInput) =>
    authenticateClient(input, clientFinder(...clients), { eitherSecretMethod: true });

  it.each<[string, ClientCredentialsInput, string]>([
    [
      'a basic client that posts its secret',
      { bodyClientId: 'backend', bodyClientSecret: SECRET },
      'backend',
    ],
    ['a post client that uses Basic', { authorizationHeader: basic('poster', SECRET) }, 'poster'],
    ['a basic client with Basic', { authorizationHeader: basic('backend', SECRET) }, 'backend'],
    ['a public client by client_id alone', { bodyClientId: 'spa' }, 'spa'],
  ])('accepts %s', async (_name, input, clientId) => {
    expect(await either(input)).toMatchObject({ ok: true, client: { clientId } });
  });

  it.each<[string, ClientCredentialsInput, string]>([
    ['a confidential client without its secret', { bodyClientId: 'backend' }, 'method_mismatch'],
    ['a wrong posted secret', { bodyClientId: 'backend', bodyClientSecret: 'wrong' }, 'secret_mismatch'],
    ['a wrong Basic secret', { authorizationHeader: basic('poster', 'wrong') }, 'secret_mismatch'],
    ['a public client with a secret', { bodyClientId: 'spa', bodyClientSecret: 'x' }, 'method_mismatch'],
    ['a public client with Basic', { authorizationHeader: basic('spa', 'x') }, 'method_mismatch'],
  ])('still refuses %s', async (_name, input, reason) => {
    expect(await either(input)).toMatchObject({ ok: false, reason });
  });
});

describe('authenticateClient: rejected secrets per client and address', () => {
  /** A limit that records what it was asked and locks a key after `threshold` rejections. */
  function limit(threshold: number) {
    const rejected: string[] = [];
    const over = (key: string) => rejected.filter((k) => k === key).length > threshold;
    return {
      rejected,
      lockedFor: (clientId: string, address: string) => (over(`${clientId}@${address}`) ? 60_000 : undefined),
      reject: (clientId: string, address: string) => {
        rejected.push(`${clientId}@${address}`);
        return Promise.resolve(over(`${clientId}@${address}`) ? 60_000 : undefined);
      },
    };
  }
  const run = (input: ClientCredentialsInput, rejectedSecrets: ReturnType<typeof limit>) =>
    authenticateClient(
      { ipAddress: '203.0.113.5', ...input },
      { ...clientFinder(...clients), rejectedSecrets },
    );

  it('counts a wrong secret of a client, and nothing that cannot guess one', async () => {
    const counts = limit(100);
    expect(await run({ authorizationHeader: basic('backend', 'wrong') }, counts)).toMatchObject({
      reason: 'secret_mismatch',
    });
    for (const input of [
      // No client to guess the secret of, no secret, nothing readable, the right secret, no address.
      { authorizationHeader: basic('nobody', SECRET) },
      { bodyClientId: 'spa' },
      { authorizationHeader: 'Basic !!!' },
      { authorizationHeader: basic('backend', SECRET) },
      { authorizationHeader: basic('backend', 'wrong'), ipAddress: null },
    ]) {
      await run(input, counts);
    }
    expect(counts.rejected).toEqual(['backend@203.0.113.5']);
  });

  it('refuses a locked client before any look-up, the right secret too, and no other client', async () => {
    const counts = limit(1);
    await run({ authorizationHeader: basic('backend', 'wrong-1') }, counts);
    const locking = await run({ authorizationHeader: basic('backend', 'wrong-2') }, counts);
    expect(locking).toMatchObject({ ok: false, reason: 'locked', retryAfterMs: 60_000 });
    const right = await run({ authorizationHeader: basic('backend', SECRET) }, counts);
    expect(right).toMatchObject({ ok: false, reason: 'locked', clientId: 'backend' });
    if (!right.ok) expect(right.error).toMatchObject({ error: 'invalid_client', status: 429 });
    expect(await run({ bodyClientId: 'poster', bodyClientSecret: SECRET }, counts)).toMatchObject({
      ok: true,
    });
    expect(await run({ bodyClientId: 'spa' }, counts)).toMatchObject({ ok: true });
    expect(counts.rejected).toHaveLength(2);
  });
});

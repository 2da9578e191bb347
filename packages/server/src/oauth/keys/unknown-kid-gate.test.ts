import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SecretBox } from '../../kernel/crypto.js';
import { SvcUnavailableError } from '../../kernel/errors.js';
import { DEFAULT_SECURITY_SETTINGS } from '../../settings/security-settings.js';
import { openDatabase, type DatabaseHandle } from '../../storage/database.js';
import { signingKeyRepository } from '../../storage/repositories/signing-keys.js';
import { createTestDatabase, describeAboveStorage, type TestDatabase } from '../../test-support/databases.js';
import { FakeClock } from '../../test-support/fake-clock.js';
import { SigningKeys, type SigningKeysDeps } from './signing-keys.js';

describeAboveStorage('unknown kid reloads', (kind) => {
  let testDb: TestDatabase;
  let handle: DatabaseHandle;
  let clock: FakeClock;
  const box = new SecretBox(randomBytes(32));

  /** One node's key service; several instances over one database behave like several nodes. */
  const node = (overrides: Partial<SigningKeysDeps> = {}) =>
    new SigningKeys({
      repository: signingKeyRepository(handle.db),
      secretBox: box,
      clock,
      settings: async () => DEFAULT_SECURITY_SETTINGS,
      ...overrides,
    });

  beforeEach(async () => {
    testDb = await createTestDatabase(kind, 'migrated');
    handle = openDatabase(testDb.target);
    clock = new FakeClock();
  });
  afterEach(async () => {
    await handle.close();
    await testDb.drop();
  });

  it('a node that loaded its keys just before another node rotated still validates the new kid', async () => {
    const a = node();
    const b = node();
    await a.ensureActiveKey();
    await b.jwks(); // b's routine load, in the same millisecond as the rotation below
    const kid = await a.rotate();
    expect(await b.verificationKey(kid)).toBeDefined();
    expect(JSON.parse((await b.jwks()).body.toString())).toMatchObject({ keys: [{}, {}] });
  });

  it('unknown kids read at most once a second; a new kid seen meanwhile waits for the next read', async () => {
    const waits: number[] = [];
    const b = node({
      wait: async (ms) => {
        waits.push(ms);
        clock.advance(ms);
      },
    });
    const a = node();
    await a.ensureActiveKey();
    await b.jwks();
    expect(await b.verificationKey('forged-kid')).toBeUndefined(); // spends this second's read
    clock.advance(400);
    const kid = await a.rotate();
    expect(await b.verificationKey(kid)).toBeDefined();
    expect(waits).toEqual([0, 600]);
    expect(await b.verificationKey('forged-again')).toBeUndefined();
    expect(waits).toEqual([0, 600, 1_000]);
  });

  it('a read in flight that started before the rotation does not hide the new kid', async () => {
    const a = node();
    await a.ensureActiveKey();
    const repository = signingKeyRepository(handle.db);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let hold = false;
    const b = node({
      repository: {
        ...repository,
        list: async () => {
          const keys = await repository.list();
          if (hold) await held;
          return keys;
        },
      },
    });
    await b.jwks();
    clock.advance(60_000); // b's snapshot is past its lifetime: the next call reads again
    hold = true;
    const routine = b.jwks(); // reads the key set as it is before the rotation, then stalls
    await new Promise((resolve) => setTimeout(resolve, 20));
    hold = false;
    const kid = await a.rotate();
    const verified = b.verificationKey(kid);
    release();
    expect(await verified).toBeDefined();
    expect(JSON.parse((await routine).body.toString())).toMatchObject({ keys: [{}] });
  });

  it('keeps publishing the keys it has while the database is away; a validation past the cache fails with it', async () => {
    const a = node();
    await a.ensureActiveKey();
    const repository = signingKeyRepository(handle.db);
    let down = false;
    const b = node({
      repository: {
        ...repository,
        list: async () => {
          if (down) throw new SvcUnavailableError(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
          return repository.list();
        },
      },
    });
    const before = await b.jwks();
    const kid = (await a.activeKey()).kid;
    down = true;
    clock.advance(60_000);
    expect(await b.jwks()).toEqual(before);
    await expect(b.verificationKey(kid)).rejects.toBeInstanceOf(SvcUnavailableError);
    await expect(b.verificationKey('new-kid')).rejects.toBeInstanceOf(SvcUnavailableError);
    down = false;
    expect(await b.verificationKey(kid)).toBeDefined();
  });
});

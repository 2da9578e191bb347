import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SecretBox } from '../../kernel/crypto.js';
import { DEFAULT_SECURITY_SETTINGS } from '../../settings/security-settings.js';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../storage/database.js';
import { signingKeyRepository } from '../../storage/repositories/signing-keys.js';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../../test-support/databases.js';
import { FakeClock } from '../../test-support/fake-clock.js';
import { SigningKeys } from './signing-keys.js';

describeEachDatabase('unknown kid reloads', (kind) => {
  let testDb: TestDatabase;
  let handle: DatabaseHandle;
  let clock: FakeClock;
  const box = new SecretBox(randomBytes(32));

  /** One node's key service; several instances over one database behave like several nodes. */
  const node = () =>
    new SigningKeys({
      repository: signingKeyRepository(handle.db),
      secretBox: box,
      clock,
      settings: async () => DEFAULT_SECURITY_SETTINGS,
    });

  beforeEach(async () => {
    testDb = await createTestDatabase(kind);
    handle = openDatabase(testDb.target);
    await migrateToLatest(handle.db);
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
    expect(JSON.parse((await b.jwks()).body)).toMatchObject({ keys: [{}, {}] });
  });

  it('unknown kids reload at most once a second, counted from the last such reload', async () => {
    const a = node();
    const b = node();
    await a.ensureActiveKey();
    await b.jwks();
    expect(await b.verificationKey('forged-kid')).toBeUndefined(); // spends this second's reload
    const kid = await a.rotate();
    expect(await b.verificationKey(kid)).toBeUndefined();
    clock.advance(999);
    expect(await b.verificationKey(kid)).toBeUndefined();
    clock.advance(1);
    expect(await b.verificationKey(kid)).toBeDefined();
  });
});

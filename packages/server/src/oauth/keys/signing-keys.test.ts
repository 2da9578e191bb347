import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { DAY_MS } from '../../kernel/clock.js';
import { SecretBox } from '../../kernel/crypto.js';
import { DEFAULT_SECURITY_SETTINGS } from '../../settings/security-settings.js';
import { openDatabase, type DatabaseHandle } from '../../storage/database.js';
import { signingKeyRepository } from '../../storage/repositories/signing-keys.js';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../../test-support/databases.js';
import { FakeClock } from '../../test-support/fake-clock.js';
import { nextRsaTestKeyPair } from '../../test-support/rsa-test-keys.js';
import { SigningKeys } from './signing-keys.js';

const settings = {
  ...DEFAULT_SECURITY_SETTINGS,
  signingKeyRotationIntervalDays: 10,
  signingKeyGraceWindowDays: 2,
  signingKeyRetiredCleanupDays: 3,
};

describeEachDatabase('signing keys', (kind) => {
  let testDb: TestDatabase;
  let handle: DatabaseHandle;
  let clock: FakeClock;
  let box: SecretBox;

  /** One node's key service; several instances over one database behave like several nodes. */
  const node = () =>
    new SigningKeys({
      repository: signingKeyRepository(handle.db),
      secretBox: box,
      clock,
      settings: async () => settings,
      newKeyPair: async () => nextRsaTestKeyPair(),
    });
  const publishedKids = async (keys: SigningKeys) =>
    (JSON.parse((await keys.jwks()).body.toString()) as { keys: { kid: string }[] }).keys.map((k) => k.kid);

  beforeEach(async () => {
    testDb = await createTestDatabase(kind, 'migrated');
    handle = openDatabase(testDb.target);
    clock = new FakeClock();
    box = new SecretBox(randomBytes(32));
  });
  afterEach(async () => {
    await handle.close();
    await testDb.drop();
  });

  it('creates exactly one active RS256 key even when several nodes start at once', async () => {
    await Promise.all([node().ensureActiveKey(), node().ensureActiveKey(), node().ensureActiveKey()]);
    const rows = await handle.db.selectFrom('signingKeys').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.activeSlot).toBe(1);
    const jwk = JSON.parse(rows[0]?.publicJwkJson ?? '{}') as Record<string, unknown>;
    expect(jwk).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: rows[0]?.kid });
    expect(Buffer.from(String(jwk.n), 'base64url').length * 8).toBe(2048);
  });

  it('stores the private key sealed with the master key, bound to its kid', async () => {
    const keys = node();
    await keys.ensureActiveKey();
    const row = await handle.db.selectFrom('signingKeys').selectAll().executeTakeFirstOrThrow();
    expect(row.privateKeySealed).not.toContain('PRIVATE KEY');
    expect(box.decrypt(row.privateKeySealed, `signing-key:${row.kid}`)).toContain('BEGIN PRIVATE KEY');
    expect(() => box.decrypt(row.privateKeySealed, 'signing-key:other')).toThrow();
    expect(() =>
      new SecretBox(randomBytes(32)).decrypt(row.privateKeySealed, `signing-key:${row.kid}`),
    ).toThrow();
  });

  it('keeps a rotated-out key published for the grace window, then retires and finally deletes it', async () => {
    const keys = node();
    await keys.ensureActiveKey();
    const first = (await keys.activeKey()).kid;
    const second = await keys.rotate();
    expect((await keys.activeKey()).kid).toBe(second);
    expect(await publishedKids(keys)).toEqual(expect.arrayContaining([first, second]));

    clock.advance(settings.signingKeyGraceWindowDays * DAY_MS + 1);
    expect(await publishedKids(keys)).toEqual([second]);
    expect(await keys.verificationKey(first)).toBeUndefined();
    expect((await keys.maintain()).deleted).toBe(0);

    clock.advance(settings.signingKeyRetiredCleanupDays * DAY_MS);
    expect(await keys.maintain()).toEqual({ rotated: undefined, deleted: 1 });
    expect((await handle.db.selectFrom('signingKeys').select('kid').execute()).map((r) => r.kid)).toEqual([
      second,
    ]);
  });

  it('rotates on schedule once per interval, even when every node runs the schedule at once', async () => {
    const nodes = [node(), node(), node()];
    await nodes[0]?.ensureActiveKey();
    expect((await Promise.all(nodes.map((n) => n.maintain()))).every((r) => r.rotated === undefined)).toBe(
      true,
    );

    clock.advance(settings.signingKeyRotationIntervalDays * DAY_MS);
    const results = await Promise.all(nodes.map((n) => n.maintain()));
    expect(results.filter((r) => r.rotated !== undefined)).toHaveLength(1);
    const rows = await handle.db.selectFrom('signingKeys').selectAll().execute();
    expect(rows).toHaveLength(2);
    expect(rows.filter((r) => r.activeSlot === 1)).toHaveLength(1);
  });

  it('sees another node’s rotation: an unknown kid reloads the key set', async () => {
    const a = node();
    const b = node();
    await a.ensureActiveKey();
    await b.jwks();
    clock.advance(5_000);
    const kid = await a.rotate();
    expect(await b.verificationKey(kid)).toBeDefined();
  });

  it('serves the JWKS from memory within the key cache lifetime, then shows another node’s rotation', async () => {
    const repository = signingKeyRepository(handle.db);
    let reads = 0;
    const counted = { ...repository, list: () => ((reads += 1), repository.list()) };
    const b = new SigningKeys({ repository: counted, secretBox: box, clock, settings: async () => settings });
    const a = node();
    await a.ensureActiveKey();
    expect(b.currentJwks()).toBeUndefined();
    const before = await b.jwks();
    const readsWhenWarm = reads;
    for (let i = 0; i < 100; i += 1) expect(b.currentJwks()).toBe(before);
    expect(reads).toBe(readsWhenWarm);

    const kid = await a.rotate();
    clock.advance(29_999);
    expect(b.currentJwks()).toBe(before);
    clock.advance(1);
    expect(b.currentJwks()).toBeUndefined();
    const after = await b.jwks();
    expect(after.etag).not.toBe(before.etag);
    expect(await publishedKids(b)).toContain(kid);
    // Read again after another cache lifetime, the same keys keep the same document: not serialized again.
    clock.advance(30_000);
    expect(await b.jwks()).toBe(after);
  });

  it('serves the JWKS with a stable ETag that changes with the key set', async () => {
    const keys = node();
    await keys.ensureActiveKey();
    const before = await keys.jwks();
    expect((await keys.jwks()).etag).toBe(before.etag);
    await keys.rotate();
    expect((await keys.jwks()).etag).not.toBe(before.etag);
  });
});

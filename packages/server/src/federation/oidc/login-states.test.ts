import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SecretBox, sha256Hex } from '../../kernel/crypto.js';
import { openDatabase, type DatabaseHandle } from '../../storage/database.js';
import { oidcLoginStateRepository } from '../../storage/repositories/oidc-login-states.js';
import { deleteExpiredRows } from '../../storage/expired-rows.js';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../../test-support/databases.js';
import { FakeClock } from '../../test-support/fake-clock.js';
import { insertConnectionRow } from '../../test-support/federation/connections.js';
import { OIDC_LOGIN_STATE_LIFETIME_MS, OidcLoginStates } from './login-states.js';

const IN_FLIGHT = {
  connectionId: 'oidc_1',
  authRequestId: 'azr_1',
  redirectUri: 'https://id.example.com/svc/auth/oidc/callback',
  nonce: 'nonce-value-0123456789',
  codeVerifier: 'verifier-0123456789-0123456789-0123456789-abc',
};

/** Sign-ins in flight (migration 0020): taken once, before they expire, on both databases. */
describeEachDatabase('OIDC sign-ins in flight', (kind) => {
  let testDb: TestDatabase;
  let handle: DatabaseHandle;
  let clock: FakeClock;
  let states: OidcLoginStates;

  beforeEach(async () => {
    testDb = await createTestDatabase(kind, 'migrated');
    handle = openDatabase(testDb.target);
    clock = new FakeClock();
    await insertConnectionRow(handle.db, 'oidc_1', 'Google');
    states = new OidcLoginStates({
      repository: oidcLoginStateRepository(handle.db),
      secrets: new SecretBox(randomBytes(32)),
      clock,
    });
  });
  afterEach(async () => {
    await handle.close();
    await testDb.drop();
  });

  it('gives a state back once, with what the callback checks', async () => {
    await states.begin('state-a', IN_FLIGHT);
    expect(await states.take('state-b')).toBeUndefined();
    expect(await states.take('state-a')).toEqual(IN_FLIGHT);
    expect(await states.take('state-a')).toBeUndefined();
  });

  it('concurrent callbacks of one state: exactly one continues', async () => {
    await states.begin('state-a', IN_FLIGHT);
    const taken = await Promise.all([1, 2, 3, 4].map(() => states.take('state-a')));
    expect(taken.filter((entry) => entry !== undefined)).toHaveLength(1);
  });

  it('stores neither the state nor the nonce or verifier in plain text', async () => {
    await states.begin('state-a', IN_FLIGHT);
    const row = await handle.db.selectFrom('oidcLoginStates').selectAll().executeTakeFirstOrThrow();
    expect(row.tokenHash).toBe(sha256Hex('state-a'));
    expect(JSON.stringify(row)).not.toContain('state-a');
    expect(row.secretsSealed).not.toContain(IN_FLIGHT.nonce);
    expect(row.secretsSealed).not.toContain(IN_FLIGHT.codeVerifier);
  });

  it('expires after ten minutes, and housekeeping deletes it', async () => {
    await states.begin('state-a', IN_FLIGHT);
    await states.begin('state-b', IN_FLIGHT);
    clock.advance(OIDC_LOGIN_STATE_LIFETIME_MS - 1);
    expect(await states.take('state-b')).toEqual(IN_FLIGHT);
    clock.advance(1);
    expect(await states.take('state-a')).toBeUndefined();
    const deleted = await deleteExpiredRows(handle.db, clock.now() + 1);
    expect(deleted.oidcLoginStates).toBe(2);
  });
});

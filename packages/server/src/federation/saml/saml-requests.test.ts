import { beforeEach, expect, it } from 'vitest';
import { sha256Hex } from '../../kernel/crypto.js';
import { deleteExpiredRows } from '../../storage/expired-rows.js';
import {
  samlAuthnRequestRepository,
  samlUsedAssertionRepository,
} from '../../storage/repositories/saml-requests.js';
import { describeEachDatabase } from '../../test-support/databases.js';
import { useFreshMigratedDatabase } from '../../test-support/fresh-database.js';
import { FakeClock } from '../../test-support/fake-clock.js';
import { insertOrganizationRows, insertSsoConnectionRow } from '../../test-support/user-rows.js';
import type { SamlUsedAssertionRepository } from './authn-request-repository.js';
import { SAML_AUTHN_REQUEST_LIFETIME_MS, SamlAuthnRequests } from './authn-requests.js';

const CONTINUATION = { authRequestId: 'azr_1', nested: { list: [1, 'two', true, null] } };

/**
 * What only the database guarantees for SAML sign-ins (migration 0022): an AuthnRequest is taken once,
 * an assertion id is remembered once per connection, even by concurrent posts, and housekeeping deletes
 * both after their expiry.
 */
describeEachDatabase('SAML requests in flight and used assertions', (kind) => {
  // The request and assertion ids are fixed and housekeeping sweeps whole tables: a database per test.
  const handle = useFreshMigratedDatabase(kind);
  let clock: FakeClock;
  let requests: SamlAuthnRequests;
  let used: SamlUsedAssertionRepository;
  let connectionIds: string[];

  beforeEach(async () => {
    clock = new FakeClock();
    await insertOrganizationRows(handle.db, ['org_acme'], clock.now());
    connectionIds = ['sso_first', 'sso_second'];
    for (const id of connectionIds) await insertSsoConnectionRow(handle.db, id, 'org_acme', clock.now());
    requests = new SamlAuthnRequests({ repository: samlAuthnRequestRepository(handle.db), clock });
    used = samlUsedAssertionRepository(handle.db);
  });

  const connection = (index: number) => connectionIds[index] ?? '';
  const assertion = (index: number, id: string, expiresAt = clock.now() + 60_000) => ({
    connectionId: connection(index),
    assertionIdHash: sha256Hex(id),
    usedAt: clock.now(),
    expiresAt,
  });

  it('gives a request back once, with its connection, RelayState check and continuation', async () => {
    await requests.begin('_request-a', 'relay-a', connection(0), CONTINUATION);
    expect(await requests.take('_request-b')).toBeUndefined();
    const taken = await requests.take('_request-a');
    expect(taken).toMatchObject({ connectionId: connection(0), continuation: CONTINUATION });
    expect(taken?.relayStateMatches('relay-a')).toBe(true);
    expect(taken?.relayStateMatches('relay-b')).toBe(false);
    expect(await requests.take('_request-a')).toBeUndefined();
    const row = await handle.db.selectFrom('samlAuthnRequests').selectAll().executeTakeFirstOrThrow();
    expect(row.tokenHash).toBe(sha256Hex('_request-a'));
    expect(JSON.stringify(row)).not.toContain('relay-a');
  });

  it('concurrent answers to one request: exactly one takes it', async () => {
    await requests.begin('_request-a', 'relay-a', connection(0), CONTINUATION);
    const taken = await Promise.all([1, 2, 3, 4].map(() => requests.take('_request-a')));
    expect(taken.filter((entry) => entry !== undefined)).toHaveLength(1);
  });

  it('remembers an assertion once per connection, even against concurrent posts', async () => {
    const results = await Promise.all([1, 2, 3, 4].map(() => used.remember(assertion(0, '_assertion-1'))));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await used.remember(assertion(0, '_assertion-1'))).toBe(false);
    expect(await used.remember(assertion(1, '_assertion-1'))).toBe(true);
  });

  it('expires requests after ten minutes; housekeeping deletes them and used ids past their expiry', async () => {
    await requests.begin('_request-a', 'relay-a', connection(0), CONTINUATION);
    await requests.begin('_request-b', 'relay-b', connection(0), CONTINUATION);
    await used.remember(assertion(0, '_assertion-1', clock.now() + SAML_AUTHN_REQUEST_LIFETIME_MS));
    await used.remember(assertion(0, '_assertion-2', clock.now() + 2 * SAML_AUTHN_REQUEST_LIFETIME_MS));
    clock.advance(SAML_AUTHN_REQUEST_LIFETIME_MS - 1);
    expect(await requests.take('_request-b')).toBeDefined();
    clock.advance(1);
    expect(await requests.take('_request-a')).toBeUndefined();
    const deleted = await deleteExpiredRows(handle.db, clock.now() + 1);
    expect(deleted).toMatchObject({ samlAuthnRequests: 2, samlUsedAssertions: 1 });
    expect(await used.remember(assertion(0, '_assertion-2'))).toBe(false);
  });
});

import { svcOidcExchangeResultSchema, type SvcOidcExchangeResult } from '@svc/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeAboveStorage } from '../test-support/databases.js';
import { startOidcPeer, type OidcPeer } from '../test-support/federation/oidc-peer.js';
import { createProviderApp, PEER_CLIENT, type ProviderApp } from '../test-support/federation/provider-app.js';

/** Provider accounts whose verified addresses look like, or are, addresses of Svc accounts. */
const ACCOUNTS = [
  // A dotless ı (U+0131) in the domain: another domain, which upper-casing used to turn into github.test.
  { id: 'dotless-domain', email: 'ceo@gıthub.test', emailVerified: true, name: 'Mallory' },
  // A dotless ı before the @: upper-cased, it used to be ADMIN@GITHUB.TEST.
  { id: 'dotless-local', email: 'admın@github.test', emailVerified: true, name: 'Mallory' },
  // An internationalized domain, written as people read it.
  { id: 'idn', email: 'ceo@bücher.example', emailVerified: true, name: 'Ceo' },
];

let peer: OidcPeer;
beforeAll(async () => {
  peer = await startOidcPeer({ clients: [PEER_CLIENT], accounts: ACCOUNTS, shape: 'custom' });
});
afterAll(() => peer.close());

function exchanged(response: LightMyRequestResponse): SvcOidcExchangeResult {
  expect(response.statusCode, response.body).toBe(200);
  return svcOidcExchangeResultSchema.parse(response.json());
}

/**
 * Provider sign-in with Unicode addresses (docs/decisions/admin-email-identity-ascii-exact.md): a verified
 * address reaches an existing account only when it is that account's address, ASCII-exact before the @
 * and the same IDNA A-label after it.
 */
describeAboveStorage('provider sign-in with Unicode email addresses', (kind) => {
  let app: ProviderApp;
  beforeEach(async () => {
    app = await createProviderApp(kind, peer);
  });
  afterEach(() => app.h.close());

  const linksOf = (userId: string) =>
    app.h.t.svc.database.db.selectFrom('oidcIdentities').selectAll().where('userId', '=', userId).execute();

  it('never links ceo@gıthub.test, asserted verified, to the account of ceo@github.test', async () => {
    const ceo = await app.h.given.user('ceo@github.test');
    const result = exchanged(await app.exchange(await app.signIn('dotless-domain')));
    expect(result.userId).not.toBe(ceo.id);
    expect(result).toMatchObject({ userCreated: true, email: 'ceo@gıthub.test' });
    expect(result.tokens?.accessToken).toBeDefined();
    expect(await linksOf(ceo.id)).toEqual([]);
    const created = await app.h.t.svc.database.db
      .selectFrom('users')
      .select(['email', 'emailKey'])
      .where('id', '=', result.userId)
      .executeTakeFirstOrThrow();
    expect(created).toEqual({ email: 'ceo@gıthub.test', emailKey: 'CEO@XN--GTHUB-N4A.TEST' });
  });

  it('keeps an address that is not ASCII before the @ unlinked: a new account without it', async () => {
    const admin = await app.h.given.user('admin@github.test');
    const result = exchanged(await app.exchange(await app.signIn('dotless-local')));
    expect(result.userId).not.toBe(admin.id);
    expect(result).toMatchObject({ userCreated: true, email: null, displayName: 'Mallory' });
    expect(await linksOf(admin.id)).toEqual([]);
    // The same identity signs in again by its subject, to the same account.
    const again = exchanged(await app.exchange(await app.signIn('dotless-local')));
    expect(again).toMatchObject({ userId: result.userId, userCreated: false });
  });

  it('links an internationalized domain by its A-label to the account of that address', async () => {
    const ceo = await app.h.given.user('ceo@xn--bcher-kva.example');
    const result = exchanged(await app.exchange(await app.signIn('idn')));
    expect(result).toMatchObject({ userId: ceo.id, userCreated: false });
    expect(await linksOf(ceo.id)).toHaveLength(1);
  });
});

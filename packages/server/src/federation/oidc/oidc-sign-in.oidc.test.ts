import { afterAll, afterEach, beforeAll, beforeEach, expect, inject, it } from 'vitest';
import { SecretBox } from '../../kernel/crypto.js';
import type { Db } from '../../storage/database.js';
import { oidcLoginStateRepository } from '../../storage/repositories/oidc-login-states.js';
import { describeAboveStorage } from '../../test-support/databases.js';
import type { FakeClock } from '../../test-support/fake-clock.js';
import { oidcAccountLinking } from '../../test-support/federation/account-linking.js';
import { startOidcPeer, type OidcPeer } from '../../test-support/federation/oidc-peer.js';
import { createTestSvc, type TestSvc } from '../../test-support/test-svc.js';
import { OidcLoginStates } from './login-states.js';
import { OIDC_LOGIN_STATE_LIFETIME_MS } from './login-states.js';
import { OidcRelyingParty } from './relying-party.js';
import { OidcRelyingPartyError } from './rp-errors.js';
import { OidcSignIn } from './oidc-sign-in.js';

const CALLBACK = 'http://127.0.0.1:9/svc/auth/oidc/callback';
const CLIENT = { clientId: 'svc-rp', clientSecret: 'rp-secret-0123456789', redirectUris: [CALLBACK] };
const ACCOUNTS = [
  { id: 'alice', email: 'alice@example.com', emailVerified: true, name: 'Alice Liddell' },
  { id: 'bob', email: 'bob@example.com', emailVerified: false, name: 'Bob' },
];

let peer: OidcPeer;
beforeAll(async () => {
  peer = await startOidcPeer({ clients: [CLIENT], accounts: ACCOUNTS, shape: 'custom' });
});
afterAll(() => peer.close());

async function refusal(promise: Promise<unknown>): Promise<OidcRelyingPartyError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OidcRelyingPartyError);
  return error as OidcRelyingPartyError;
}

/** Begin, a real provider's sign-in, then finish: the sign-in through a provider end to end. */
describeAboveStorage('signing in through a provider', (kind) => {
  // Each test disables, signs up or counts what the others would see: each has an app of its own.
  let t: TestSvc;
  let db: Db;
  let clock: FakeClock;
  let signIn: OidcSignIn;
  let connectionId: string;

  beforeEach(async () => {
    t = await createTestSvc(kind);
    db = t.svc.database.db;
    clock = t.clock;
    // The peer's ID tokens carry the real time: the clock moves there once the app has started (at the
    // time its signing key was made, so that starting rotates no key).
    clock.set(Date.now());
    const connection = await t.svc.admin.createOidcConnectionAsync({
      providerType: 'Custom',
      displayName: 'Corporate',
      clientId: CLIENT.clientId,
      clientSecret: CLIENT.clientSecret,
      discoveryUrl: peer.discoveryUrl,
      allowedCallbackUris: [CALLBACK],
    });
    connectionId = connection.id;
    const { ids } = t.svc.config;
    // The unit under test over the app's connections, refusal limits and audit log; the app builds its
    // own sign-in with its callback under the issuer and a relying party that calls no loopback address.
    signIn = new OidcSignIn({
      connections: t.svc.oidcConnections,
      relyingParty: new OidcRelyingParty({ clock, ids, allowHttpLoopback: true, timeoutMs: 2000 }),
      states: new OidcLoginStates({
        repository: oidcLoginStateRepository(db),
        secrets: new SecretBox(Buffer.from(inject('testMasterKey'), 'hex')),
        clock,
      }),
      linking: oidcAccountLinking(t),
      tokenChecks: t.svc.authEngine.tokenChecks,
      audit: t.svc.audit,
      callbackUri: CALLBACK,
    });
  });
  afterEach(async () => {
    await t.close();
  });

  it('lists the enabled providers for the sign-in page', async () => {
    expect(await signIn.providers()).toEqual([
      { connectionId, providerType: 'Custom', displayName: 'Corporate', logoDataUrl: null },
    ]);
  });

  it('signs a new identity up, continues its authorization request, and takes a callback once', async () => {
    const { authorizationUrl } = await signIn.begin(connectionId, { authRequestId: 'azr_1' });
    const callback = await peer.signIn(authorizationUrl, 'alice');
    const result = await signIn.finish(callback.searchParams, () =>
      Promise.resolve({ ipAddress: '203.0.113.9' }),
    );
    expect(result.authRequestId).toBe('azr_1');
    expect(result.outcome).toMatchObject({ kind: 'completed' });
    const completed = result.outcome.kind === 'completed' ? result.outcome : undefined;
    expect(completed?.identity).toMatchObject({
      subject: 'alice',
      email: 'alice@example.com',
      emailVerified: true,
    });
    expect(completed?.account).toMatchObject({ kind: 'created', user: { email: 'alice@example.com' } });
    const event = await db
      .selectFrom('auditEvents')
      .selectAll()
      .where('kind', '=', 'oidc.authorization.completed')
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({
      ipAddress: '203.0.113.9',
      userId: completed?.account.kind === 'created' ? completed.account.user.id : 'none',
    });
    expect(JSON.parse(event.dataJson)).toMatchObject({
      connectionId,
      providerType: 'Custom',
      userCreated: true,
    });
    // The same callback again (a reload, a replay): the state is used up.
    expect((await refusal(signIn.finish(callback.searchParams))).code).toBe('invalid_state');

    const again = await signIn.begin(connectionId, { authRequestId: 'azr_2' });
    const second = await signIn.finish((await peer.signIn(again.authorizationUrl, 'alice')).searchParams);
    expect(second.outcome).toMatchObject({ kind: 'completed', account: { kind: 'linked', newLink: false } });
  });

  it('refuses a callback whose state was never sent, was tampered with or expired', async () => {
    const { authorizationUrl } = await signIn.begin(connectionId, { authRequestId: null });
    const callback = await peer.signIn(authorizationUrl, 'alice');
    const forged = new URLSearchParams(callback.searchParams);
    forged.set('state', 'a-state-svc-never-sent');
    expect((await refusal(signIn.finish(forged))).code).toBe('invalid_state');
    const stateless = new URLSearchParams(callback.searchParams);
    stateless.delete('state');
    expect((await refusal(signIn.finish(stateless))).code).toBe('invalid_state');
    clock.advance(OIDC_LOGIN_STATE_LIFETIME_MS);
    expect((await refusal(signIn.finish(callback.searchParams))).code).toBe('invalid_state');
  });

  it('refuses a connection disabled while the user was at the provider, and an unknown one', async () => {
    const { authorizationUrl } = await signIn.begin(connectionId, { authRequestId: null });
    const callback = await peer.signIn(authorizationUrl, 'alice');
    await db.updateTable('oidcConnections').set({ enabled: 0 }).execute();
    expect((await refusal(signIn.finish(callback.searchParams))).code).toBe('invalid_callback');
    expect((await refusal(signIn.begin(connectionId, { authRequestId: null }))).code).toBe(
      'invalid_callback',
    );
    expect((await refusal(signIn.begin('oidc_unknown', { authRequestId: null }))).code).toBe(
      'invalid_callback',
    );
  });

  it('never hands an account over by an address the provider does not assert verified', async () => {
    await db
      .insertInto('users')
      .values({
        id: 'usr_bob',
        displayName: 'Bob',
        email: 'bob@example.com',
        emailKey: 'BOB@EXAMPLE.COM',
        emailVerified: 1,
        passwordHash: null,
        isOperator: 0,
        active: 1,
        createdAt: 0,
        updatedAt: 0,
      })
      .execute();
    const { authorizationUrl } = await signIn.begin(connectionId, { authRequestId: null });
    const result = await signIn.finish((await peer.signIn(authorizationUrl, 'bob')).searchParams);
    expect(result.outcome).toMatchObject({
      kind: 'completed',
      account: { kind: 'refused', reason: 'email_not_verified' },
    });
  });

  it('answers a refusal at the provider with the request it came from, and audits it', async () => {
    const { authorizationUrl } = await signIn.begin(connectionId, { authRequestId: 'azr_9' });
    const state = new URL(authorizationUrl).searchParams.get('state') ?? '';
    const denied = new URLSearchParams({ state, error: 'access_denied', error_description: 'No thanks' });
    const result = await signIn.finish(denied, () => Promise.resolve({ ipAddress: '203.0.113.7' }));
    expect(result.authRequestId).toBe('azr_9');
    expect(result.outcome).toMatchObject({
      kind: 'failed',
      error: { code: 'provider_error', providerError: 'access_denied' },
    });
    const event = await db
      .selectFrom('auditEvents')
      .selectAll()
      .where('kind', '=', 'oidc.authorization.failed')
      .executeTakeFirstOrThrow();
    expect(event.ipAddress).toBe('203.0.113.7');
    expect(JSON.parse(event.dataJson)).toMatchObject({
      error: 'provider_error',
      providerError: 'access_denied',
    });
  });
});

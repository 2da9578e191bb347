import { svcLoginResultSchema, type SvcLoginResult } from '@svc/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeAboveStorage } from '../test-support/databases.js';
import { startOidcPeer, type OidcPeer } from '../test-support/federation/oidc-peer.js';
import {
  APP_CALLBACK,
  createProviderApp,
  PEER_CLIENT,
  type ProviderApp,
} from '../test-support/federation/provider-app.js';
import { linkIn, readOutbox } from '../test-support/outbox.js';
import { endedSession, probeSession } from '../test-support/session-probe.js';
import { heldTokens, silentCode, squatAccount, SQUATTER_PASSWORD } from '../test-support/squatter.js';

const LIVE = { userinfo: 200, validated: true, refresh: 'ok' };

/** The provider's users: each test squats or signs in with addresses of its own. */
const ACCOUNTS = [
  { id: 'victim', email: 'victim@example.com', emailVerified: true, name: 'Victim' },
  { id: 'trojan', email: 'trojan.target@example.com', emailVerified: false, name: 'Squatter' },
  { id: 'trojan-target', email: 'trojan.target@example.com', emailVerified: true, name: 'Target' },
  { id: 'owner', email: 'owner@example.com', emailVerified: true, name: 'Owner' },
  { id: 'outsider', email: 'outsider@elsewhere.test', emailVerified: true, name: 'Outsider' },
  { id: 'insider', email: 'insider@acme-claimed.test', emailVerified: true, name: 'Insider' },
];

let peer: OidcPeer;
beforeAll(async () => {
  peer = await startOidcPeer({ clients: [PEER_CLIENT], accounts: ACCOUNTS, shape: 'custom' });
});
afterAll(() => peer.close());

/**
 * Pre-hijacked accounts (Sudhodanan and Paverd, USENIX Security 2022) through a provider: whoever held
 * an account of an address they never proved loses it to the provider identity that proves the address
 * (docs/decisions/accounts-linking-unverified-accounts.md); an organization's connection signs in only
 * addresses of the organization's verified domains.
 */
describeAboveStorage('no pre-hijacked account survives a provider sign-in', (kind) => {
  let app: ProviderApp;
  beforeAll(async () => {
    app = await createProviderApp(kind, peer);
  });
  afterAll(() => app.h.close());

  const db = () => app.h.t.svc.database.db;
  const userRow = (email: string) =>
    db().selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
  const passwordLogin = (email: string) =>
    app.h.post('/password/login', { email, password: SQUATTER_PASSWORD, clientId: app.client.clientId });
  const loginResult = (
    response: LightMyRequestResponse,
  ): SvcLoginResult & { userId?: string; userCreated?: boolean } => {
    expect(response.statusCode, response.body).toBe(200);
    return {
      ...svcLoginResultSchema.parse(response.json()),
      ...response.json<{ userId?: string; userCreated?: boolean }>(),
    };
  };
  const squat = (email: string) => squatAccount(app.h, app.client.clientId, email);

  it('a verified provider identity claims the squatted account: password, factor and sessions end, the owner is in', async () => {
    const squatter = await squat('victim@example.com');
    expect(await probeSession(app.h.t.svc, squatter.tokens, app.client)).toMatchObject(LIVE);

    const victim = loginResult(await app.exchange(await app.signIn('victim')));
    // The same account, signed in at once: the squatter's authenticator asks for no second factor.
    expect(victim).toMatchObject({ userId: squatter.id, userCreated: false, requiresMfa: false });

    expect((await passwordLogin('victim@example.com')).statusCode).toBe(401);
    expect(await probeSession(app.h.t.svc, squatter.tokens, app.client)).toEqual(endedSession());
    // Without the authenticator a live issuer session would sign in silently: it ended.
    expect(await silentCode(squatter.browser, app.client.clientId)).toBeNull();
    expect(await userRow('victim@example.com')).toMatchObject({ emailVerified: 1, passwordHash: null });
    expect(await app.h.t.svc.auth.listMfaAuthenticatorsAsync(squatter.id)).toEqual([]);
    expect(await app.h.t.svc.auth.getMfaStatusAsync(squatter.id)).toMatchObject({
      recoveryCodesRemaining: 0,
    });
    const [claimed] = (await app.h.events('user.unverified_account_claimed')).filter(
      (event) => event.userId === squatter.id,
    );
    expect(claimed).toMatchObject({
      actorType: 'user',
      actorId: squatter.id,
      data: {
        method: 'oidc',
        connectionId: app.connectionId,
        passwordRemoved: true,
        oidcIdentities: 0,
        samlIdentities: 0,
        authenticators: 1,
        recoveryCodes: 10,
        sessionsRevoked: 1,
        browserSessionsEnded: 1,
      },
    });
    // The owner's own session lives on.
    expect(await probeSession(app.h.t.svc, heldTokens(victim), app.client)).toMatchObject(LIVE);
  });

  it("a squatter's identity from a provider that does not verify addresses is unlinked by the owner's verified one", async () => {
    const squatted = loginResult(await app.exchange(await app.signIn('trojan')));
    expect(squatted.userCreated).toBe(true);
    const squatter = heldTokens(squatted);

    const owner = loginResult(await app.exchange(await app.signIn('trojan-target')));
    expect(owner).toMatchObject({ userId: squatted.userId, userCreated: false });
    const links = await app.h.t.svc.admin.listUserIdentitiesAsync(owner.userId ?? '');
    expect(links.data.map((link) => link.subject)).toEqual(['trojan-target']);
    expect(await probeSession(app.h.t.svc, squatter, app.client)).toEqual(endedSession());
    // The squatter's identity is new again, and its unverified address joins nothing.
    const again = await app.exchange(await app.signIn('trojan'));
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json()).toMatchObject({ error: 'provider_email_unverified' });
    const [claimed] = (await app.h.events('user.unverified_account_claimed')).filter(
      (event) => event.userId === owner.userId,
    );
    expect(claimed?.data).toMatchObject({ oidcIdentities: 1, passwordRemoved: false });
  });

  it('an account whose address is verified keeps its password and sessions when an identity joins it', async () => {
    const user = await app.h.given.user('owner@example.com');
    await app.h.t.svc.auth.createEmailVerificationTokenAsync({ email: user.email });
    const [message] = await readOutbox(app.h.t.svc.email, { to: user.email });
    const token = new URL(linkIn(message?.textBody ?? null)).searchParams.get('token') ?? '';
    await app.h.t.svc.auth.verifyEmailAsync({ token });
    const tokens = heldTokens(await app.h.login(user.email, app.client.clientId));

    expect(loginResult(await app.exchange(await app.signIn('owner')))).toMatchObject({ userId: user.id });
    expect(await probeSession(app.h.t.svc, tokens, app.client)).toMatchObject(LIVE);
    expect((await app.h.login(user.email, app.client.clientId)).tokens).not.toBeNull();
    const claims = (await app.h.events('user.unverified_account_claimed')).filter(
      (event) => event.userId === user.id,
    );
    expect(claims).toEqual([]);
  });

  it("an organization's connection signs in only addresses of the organization's verified domains", async () => {
    const organization = await app.h.given.organization();
    const connection = await app.h.t.svc.admin.createOidcConnectionAsync({
      providerType: 'Custom',
      displayName: 'Acme IdP',
      clientId: PEER_CLIENT.clientId,
      clientSecret: PEER_CLIENT.clientSecret,
      discoveryUrl: peer.discoveryUrl,
      allowedCallbackUris: [APP_CALLBACK],
      organizationId: organization.id,
    });
    const through = async (account: string) =>
      app.exchange({
        ...(await app.signIn(account, { connectionId: connection.id })),
        connectionId: connection.id,
      });

    const outside = await through('outsider');
    expect(outside.statusCode, outside.body).toBe(403);
    expect(outside.json()).toMatchObject({
      error: 'provider_domain_not_claimed',
      message: expect.stringContaining('administrator') as string,
    });
    // A claim still pending (its DNS record not checked) is no claim.
    const claim = await app.h.t.svc.admin.startVerificationAsync({
      organizationId: organization.id,
      domain: 'acme-claimed.test',
    });
    const pending = await through('insider');
    expect(pending.statusCode, pending.body).toBe(403);
    expect(await db().selectFrom('users').select('id').where('email', 'like', '%sider@%').execute()).toEqual(
      [],
    );

    // As a confirmed DNS proof leaves it (the proof itself is domain-claims' to test).
    await db()
      .updateTable('organizationDomains')
      .set({ status: 'active', verifiedAt: app.h.t.clock.now() })
      .where('id', '=', claim.id)
      .execute();
    expect(loginResult(await through('insider'))).toMatchObject({ userCreated: true });

    // An existing account of an address outside the claims is not joined either.
    const existing = await app.h.given.user('outsider@elsewhere.test');
    expect((await through('outsider')).statusCode).toBe(403);
    expect((await app.h.t.svc.admin.listUserIdentitiesAsync(existing.id)).data).toEqual([]);
    const refusals = await app.h.events('oidc.identity.link_refused');
    expect(refusals.map((event) => event.data)).toContainEqual({
      connectionId: connection.id,
      provider: 'oidc',
      reason: 'domain_not_claimed',
    });
  });
});

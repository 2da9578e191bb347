import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeAboveStorage } from '../test-support/databases.js';
import { startOidcPeer, type OidcPeer } from '../test-support/federation/oidc-peer.js';
import {
  APP_CALLBACK,
  appChecks,
  createProviderApp,
  OTHER_APP_CALLBACK,
  PEER_ACCOUNTS,
  PEER_CLIENT,
  type ProviderApp,
} from '../test-support/federation/provider-app.js';

let peer: OidcPeer;
beforeAll(async () => {
  peer = await startOidcPeer({ clients: [PEER_CLIENT], accounts: PEER_ACCOUNTS, shape: 'custom' });
});
afterAll(() => peer.close());

/** A refusal of a direct route: its status and `{ error, message }`, never cached. */
function refused(response: LightMyRequestResponse, status: number, error: string): void {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['cache-control']).toBe('no-store');
  expect(response.json()).toMatchObject({ error, message: expect.any(String) });
}

/**
 * What POST /oidc/authorization-url and POST /oidc/exchange refuse, and that each refusal leaves no
 * account, link or session behind: a client that is not first-party (before the provider is asked), a
 * wrong nonce, a code used twice, a callback URI the connection does not allow or that is not the
 * start's, an unverified address of an existing account, a deactivated account, a disabled connection,
 * an unreachable provider, and malformed bodies.
 */
describeAboveStorage('refusals of the provider sign-in of a first-party app', (kind) => {
  let app: ProviderApp;
  beforeEach(async () => {
    app = await createProviderApp(kind, peer);
  });
  afterEach(() => app.h.close());

  const db = () => app.h.t.svc.database.db;
  const count = async (table: 'users' | 'sessions' | 'oidcIdentities') =>
    Number(
      (
        await db()
          .selectFrom(table)
          .select((e) => e.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('refuses a client that is not first-party with invalid_client before the provider is asked', async () => {
    const thirdParty = await app.h.given.client({ isFirstParty: false });
    const before = peer.server.requests.length;
    refused((await app.start({ clientId: thirdParty.clientId })).response, 400, 'invalid_client');
    expect(peer.server.requests.length).toBe(before);

    const body = await app.signIn('alice');
    const tokenRequests = peer.server.count('POST /token');
    refused(await app.exchange({ ...body, clientId: thirdParty.clientId }), 400, 'invalid_client');
    expect(peer.server.count('POST /token')).toBe(tokenRequests);
    // One event per refusal (written within the same millisecond of the fake clock: in any order).
    const events = await app.h.events('oauth.direct_login.rejected', thirdParty.clientId);
    expect(events.map((e) => e.data)).toEqual(
      expect.arrayContaining([
        { client_id: thirdParty.clientId, route: '/svc/auth/oidc/authorization-url' },
        { client_id: thirdParty.clientId, route: '/svc/auth/oidc/exchange' },
      ]),
    );
    expect(events).toHaveLength(2);
    refused(await app.exchange({ ...body, clientId: 'no-such-client' }), 400, 'invalid_client');
    expect(await count('users')).toBe(0);
    // The code is still good for the app it was meant for.
    expect((await app.exchange(body)).statusCode).toBe(200);
  });

  it('refuses an ID token whose nonce is not the one the app sent, and audits it', async () => {
    const body = await app.signIn('alice');
    refused(await app.exchange({ ...body, nonce: 'another-nonce' }), 400, 'invalid_id_token');
    expect(await app.h.events('oidc.authorization.failed', app.client.clientId)).toMatchObject([
      { ipAddress: '127.0.0.1', data: { connectionId: app.connectionId, error: 'invalid_id_token' } },
    ]);
    expect(await count('users')).toBe(0);
  });

  it('redeems a code once: a replayed exchange is refused and signs no one in', async () => {
    const body = await app.signIn('alice');
    expect((await app.exchange(body)).statusCode).toBe(200);
    const replay = await app.exchange(body);
    refused(replay, 400, 'provider_error');
    expect(replay.json<{ message: string }>().message).toMatch(/invalid_grant/);
    expect(await count('sessions')).toBe(1);
  });

  it('takes only callback URIs the connection allows, and only the start’s', async () => {
    const other = 'https://evil.example.com/oidc/callback';
    const before = peer.server.requests.length;
    refused((await app.start({ callbackUri: other })).response, 400, 'invalid_redirect_uri');
    expect(peer.server.requests.length).toBe(before);
    const body = await app.signIn('alice');
    refused(await app.exchange({ ...body, callbackUri: other }), 400, 'invalid_redirect_uri');
    // Allowed, but not the one the code was issued for: the provider refuses to redeem it.
    refused(await app.exchange({ ...body, callbackUri: OTHER_APP_CALLBACK }), 400, 'provider_error');
    expect(await count('users')).toBe(0);
  });

  it('never hands an account over by an address the provider does not vouch for', async () => {
    const bob = await app.h.given.user('bob@example.com');
    refused(await app.exchange(await app.signIn('bob')), 409, 'provider_email_unverified');
    expect(await count('oidcIdentities')).toBe(0);
    expect(await count('sessions')).toBe(0);
    expect(await app.h.events('oidc.identity.link_refused', app.client.clientId)).toMatchObject([
      { userId: bob.id, data: { reason: 'email_not_verified' } },
    ]);
  });

  it('refuses the identity of a deactivated account', async () => {
    const first = await app.exchange(await app.signIn('alice'));
    const userId = first.json<{ userId: string }>().userId;
    await app.h.t.svc.admin.deactivateUserAsync(userId);
    refused(await app.exchange(await app.signIn('alice')), 403, 'account_inactive');
  });

  it('refuses a disabled or unknown connection', async () => {
    const body = await app.signIn('alice');
    await app.h.t.svc.admin.disableOidcConnectionAsync(app.connectionId);
    refused((await app.start()).response, 400, 'invalid_connection');
    refused(await app.exchange(body), 400, 'invalid_connection');
    refused((await app.start({ connectionId: 'oidc_unknown' })).response, 400, 'invalid_connection');
    expect(await count('users')).toBe(0);
  });

  it('answers 502 when the provider cannot be reached', async () => {
    const unreachable = await app.h.t.svc.admin.createOidcConnectionAsync({
      providerType: 'Custom',
      displayName: 'Gone',
      clientId: 'gone',
      clientSecret: 'gone-secret-value',
      // Port 9 (discard) on loopback: nothing listens there.
      discoveryUrl: 'http://127.0.0.1:9/.well-known/openid-configuration',
      allowedCallbackUris: [APP_CALLBACK],
    });
    refused((await app.start({ connectionId: unreachable.id })).response, 502, 'provider_unavailable');
  });

  it('answers 400 to malformed bodies, naming the field', async () => {
    const checks = appChecks();
    const start = {
      connectionId: app.connectionId,
      clientId: app.client.clientId,
      callbackUri: APP_CALLBACK,
      state: checks.state,
      nonce: checks.nonce,
      codeChallenge: checks.codeChallenge,
      codeChallengeMethod: 'S256',
    };
    const exchange = {
      connectionId: app.connectionId,
      clientId: app.client.clientId,
      callbackUri: APP_CALLBACK,
      code: 'a-code',
      codeVerifier: checks.codeVerifier,
      nonce: checks.nonce,
    };
    // The field each body gets wrong (null: not JSON at all).
    const cases: [string, object | string, string | null][] = [
      ['/oidc/authorization-url', '{"connectionId":', null],
      ['/oidc/authorization-url', '[]', '(body)'],
      ['/oidc/authorization-url', { ...start, codeChallengeMethod: 'plain' }, 'codeChallengeMethod'],
      ['/oidc/authorization-url', { ...start, codeChallengeMethod: undefined }, 'codeChallengeMethod'],
      [
        '/oidc/authorization-url',
        { ...start, codeChallenge: checks.codeVerifier.slice(0, 42) },
        'codeChallenge',
      ],
      ['/oidc/authorization-url', { ...start, state: 'x'.repeat(2049) }, 'state'],
      ['/oidc/authorization-url', { ...start, nonce: 'with space' }, 'nonce'],
      ['/oidc/authorization-url', { ...start, callbackUri: 'not a url' }, 'callbackUri'],
      ['/oidc/authorization-url', { ...start, email: 'not-an-address' }, 'email'],
      ['/oidc/authorization-url', { ...start, connectionId: 42 }, 'connectionId'],
      ['/oidc/exchange', { ...exchange, code: undefined }, 'code'],
      ['/oidc/exchange', { ...exchange, codeVerifier: 'short' }, 'codeVerifier'],
      ['/oidc/exchange', { ...exchange, nonce: ['n'] }, 'nonce'],
      ['/oidc/exchange', { ...exchange, userPayloadJson: { name: {} } }, 'userPayloadJson'],
      ['/oidc/exchange', { ...exchange, callbackUri: 'javascript:alert(1)' }, 'callbackUri'],
      ['/oidc/exchange', 'null', '(body)'],
    ];
    const before = peer.server.requests.length;
    for (const [path, body, field] of cases) {
      const response = await app.h.post(path, body);
      refused(response, 400, 'invalid_request');
      if (field !== null) {
        const { details } = response.json<{ details: { path: string }[] }>();
        expect(
          details.map((detail) => detail.path),
          `${path} ${field}`,
        ).toContain(field);
      }
    }
    expect(peer.server.requests.length).toBe(before);
  });
});

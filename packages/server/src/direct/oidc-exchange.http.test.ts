import {
  svcOidcExchangeResultSchema,
  svcOidcStartResultSchema,
  type SvcOidcExchangeResult,
} from '@svc/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeAboveStorage } from '../test-support/databases.js';
import { startOidcPeer, type OidcPeer } from '../test-support/federation/oidc-peer.js';
import {
  APP_CALLBACK,
  createProviderApp,
  PEER_ACCOUNTS,
  PEER_CLIENT,
  type ProviderApp,
} from '../test-support/federation/provider-app.js';
import { mfaSettings, rejectionOf } from '../test-support/mfa.js';

let peer: OidcPeer;
beforeAll(async () => {
  peer = await startOidcPeer({ clients: [PEER_CLIENT], accounts: PEER_ACCOUNTS, shape: 'custom' });
});
afterAll(() => peer.close());

/** A 200 answer of /oidc/exchange, parsed with the contract schema; never cached. */
function exchanged(response: LightMyRequestResponse): SvcOidcExchangeResult {
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['cache-control']).toBe('no-store');
  return svcOidcExchangeResultSchema.parse(response.json());
}

/**
 * The provider sign-in of a first-party app that keeps its own checks (docs/reference/federation.md,
 * "OIDC complete request"; docs/reference/federation.md): POST /oidc/authorization-url and
 * POST /oidc/exchange against a real OpenID provider, and CompleteExternalLoginAsync in process.
 */
describeAboveStorage('provider sign-in of a first-party app', (kind) => {
  let app: ProviderApp;
  beforeEach(async () => {
    app = await createProviderApp(kind, peer);
  });
  afterEach(() => app.h.close());

  it('signs a new user up through the provider, then the same user in again', async () => {
    const { response, checks } = await app.start({ email: 'alice@example.com' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const started = svcOidcStartResultSchema.parse(response.json());
    expect(started).toMatchObject({
      connectionId: app.connectionId,
      providerType: 'Custom',
      displayName: 'Corporate',
    });
    const url = new URL(started.authorizationUrl);
    expect(`${url.origin}${url.pathname}`).toBe(peer.authorizationEndpoint);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: PEER_CLIENT.clientId,
      redirect_uri: APP_CALLBACK,
      state: checks.state,
      nonce: checks.nonce,
      code_challenge: checks.codeChallenge,
      code_challenge_method: 'S256',
      login_hint: 'alice@example.com',
    });

    const first = exchanged(await app.exchange(await app.signIn('alice')));
    expect(first).toMatchObject({
      email: 'alice@example.com',
      emailVerified: true,
      displayName: 'Alice Liddell',
      organizationId: null,
      organizationCount: 0,
      authenticationMethod: 'oidc',
      userCreated: true,
      connectionId: app.connectionId,
      requiresOrganizationSelection: false,
      requiresMfa: false,
      tokens: { clientId: app.client.clientId, organizationId: null },
    });
    const session = await app.h.t.svc.database.db
      .selectFrom('sessions')
      .select(['userId', 'amrJson'])
      .where('id', '=', first.tokens?.sessionId ?? '')
      .executeTakeFirstOrThrow();
    expect(session).toEqual({ userId: first.userId, amrJson: '["fed"]' });
    expect(await app.h.events('oidc.authorization.completed', app.client.clientId)).toMatchObject([
      {
        userId: first.userId,
        ipAddress: '127.0.0.1',
        data: { connectionId: app.connectionId, userCreated: true },
      },
    ]);
    expect(await app.h.events('oauth.direct_login.succeeded', app.client.clientId)).toMatchObject([
      { userId: first.userId, data: { route: '/svc/auth/oidc/exchange', method: 'oidc' } },
    ]);

    const again = exchanged(await app.exchange(await app.signIn('alice')));
    expect(again).toMatchObject({ userId: first.userId, userCreated: false });
    expect(again.tokens?.sessionId).not.toBe(first.tokens?.sessionId);
  });

  it('names the one organization, and asks for a choice between two', async () => {
    const alice = await app.h.given.user('alice@example.com');
    const acme = await app.h.given.organization('Acme');
    await app.h.given.membership(acme.id, alice.id);
    const one = exchanged(await app.exchange(await app.signIn('alice')));
    // The provider vouches for the address: the identity joins the existing account.
    expect(one).toMatchObject({
      userId: alice.id,
      userCreated: false,
      organizationId: acme.id,
      organizationCount: 1,
      tokens: { organizationId: acme.id },
    });

    const globex = await app.h.given.organization('Globex');
    await app.h.given.membership(globex.id, alice.id, 'admin');
    const two = exchanged(await app.exchange(await app.signIn('alice')));
    expect(two).toMatchObject({
      userId: alice.id,
      organizationId: null,
      organizationCount: 2,
      requiresOrganizationSelection: true,
      tokens: null,
    });
    expect(two.organizations.map((o) => o.id).sort()).toEqual([acme.id, globex.id].sort());
    const selected = await app.h.post('/select-organization', {
      pendingAuthToken: two.pendingAuthToken,
      organizationId: globex.id,
    });
    expect(selected.statusCode, selected.body).toBe(200);
    expect(selected.json()).toMatchObject({ tokens: { organizationId: globex.id } });
  });

  it('asks for a second factor when the MFA policy requires one', async () => {
    await app.h.t.svc.admin.updateMfaSettingsAsync(mfaSettings({ requireForAllUsers: true }));
    const result = exchanged(await app.exchange(await app.signIn('alice')));
    expect(result).toMatchObject({
      userCreated: true,
      requiresMfa: true,
      requiresMfaEnrollment: true,
      mfaToken: expect.any(String),
      tokens: null,
    });
  });

  it('lets a confidential first-party client in only with its secret', async () => {
    const confidential = await app.h.given.client({ tokenEndpointAuthMethod: 'client_secret_post' });
    const secret = confidential.clientSecret ?? '';
    const without = await app.start({ clientId: confidential.clientId });
    expect(without.response.statusCode, without.response.body).toBe(401);
    expect(without.response.json()).toMatchObject({ error: 'invalid_client' });

    const body = await app.signIn('alice', { clientId: confidential.clientId, clientSecret: secret });
    const refused = await app.exchange({ ...body, clientId: confidential.clientId });
    expect(refused.statusCode, refused.body).toBe(401);
    const result = exchanged(
      await app.exchange({ ...body, clientId: confidential.clientId, clientSecret: secret }),
    );
    expect(result.tokens?.clientId).toBe(confidential.clientId);
  });

  it('CompleteExternalLoginAsync signs a completed user in, first-party clients and active users only', async () => {
    const auth = app.h.t.svc.auth;
    const body = await app.signIn('alice');
    const completion = await auth.completeAuthorizationAsync({
      connectionId: app.connectionId,
      clientId: app.client.clientId,
      callbackUri: APP_CALLBACK,
      code: String(body.code),
      codeVerifier: String(body.codeVerifier),
      nonce: String(body.nonce),
    });
    expect(completion).toMatchObject({ userCreated: true, authenticationMethod: 'oidc' });
    expect(await app.h.events('oidc.authorization.completed')).toHaveLength(1);
    // No session, no tokens: the completion only names the account.
    const sessions = () =>
      app.h.t.svc.database.db
        .selectFrom('sessions')
        .select('id')
        .where('userId', '=', completion.userId)
        .execute();
    expect(await sessions()).toEqual([]);

    const acme = await app.h.given.organization('Acme');
    await app.h.given.membership(acme.id, completion.userId);
    const login = {
      userId: completion.userId,
      clientId: app.client.clientId,
      authenticationMethod: completion.authenticationMethod,
      organizationId: acme.id,
    };
    expect(await auth.completeExternalLoginAsync(login)).toMatchObject({
      tokens: { organizationId: acme.id },
    });
    expect(await sessions()).toHaveLength(1);

    const thirdParty = await app.h.given.client({ isFirstParty: false });
    expect(
      await rejectionOf(auth.completeExternalLoginAsync({ ...login, clientId: thirdParty.clientId })),
    ).toMatchObject({ error: 'invalid_client', status: 400 });
    expect(await app.h.events('oauth.direct_login.rejected', thirdParty.clientId)).toMatchObject([
      { data: { route: 'completeExternalLoginAsync' } },
    ]);
    expect(
      await rejectionOf(auth.completeExternalLoginAsync({ ...login, userId: 'usr_unknown' })),
    ).toMatchObject({
      code: 'not_found',
      status: 404,
    });
    await app.h.t.svc.admin.deactivateUserAsync(completion.userId);
    expect(await rejectionOf(auth.completeExternalLoginAsync(login))).toMatchObject({
      error: 'account_inactive',
      status: 403,
    });
    expect(
      await rejectionOf(auth.completeExternalLoginAsync({ ...login, authenticationMethod: 'pwd' as 'oidc' })),
    ).toMatchObject({
      code: 'invalid_request',
      status: 400,
    });
  });
});

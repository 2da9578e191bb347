import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeRedirect } from '../authorize/redirect.js';
import { oauthTestApp, REDIRECT_URI } from '../../test-support/oauth-http.js';
import { createTestSvc, type TestSvc } from '../../test-support/test-svc.js';

/**
 * A real OAuth client library (oauth4webapi) against a real listening Svc: discovery, the authorization
 * response (RFC 9207 `iss` included), the code exchange with PKCE and strict ID token validation, refresh,
 * userinfo and client credentials. The code is issued the way /authorize issues it, so this runs without
 * the hosted pages (the browser test covers them).
 */

/** A free loopback port, so that the issuer (public origin) can name the port the server listens on. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null ? resolve(address.port) : reject(),
      );
    });
  });
}

const INSECURE = { [oauth.allowInsecureRequests]: true } as const;
const ORDERS = 'https://orders.example.com';

describe('oauth4webapi against Svc', () => {
  let t: TestSvc;
  let app: FastifyInstance;
  let issuer: URL;
  let as: oauth.AuthorizationServer;
  /** oauth4webapi's clock runs on Date.now(); Svc's on the fake clock. */
  let skew: number;

  beforeAll(async () => {
    const port = await freePort();
    t = await createTestSvc('sqlite', { publicOrigin: `http://127.0.0.1:${port}` });
    app = await oauthTestApp(t);
    await app.listen({ port, host: '127.0.0.1' });
    issuer = new URL(t.svc.config.issuer);
    skew = Math.round((t.clock.now() - Date.now()) / 1000);
    as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...INSECURE }),
    );
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  /** A user and a completed authorization request at `clientId`; the callback URL the browser would get. */
  async function authorize(clientId: string, scopes: string[], organization = false) {
    const user = await t.svc.admin.createUserAsync({
      displayName: 'Ann Example',
      email: `ann-${clientId.replace(/[^a-z0-9-]/g, '-')}@example.com`,
      password: 'correct horse battery staple',
    });
    let organizationId: string | null = null;
    if (organization) {
      organizationId = (await t.svc.admin.createOrganizationAsync({ name: `Org of ${clientId}` })).id;
      await t.svc.admin.createMembershipAsync({ organizationId, userId: user.id, role: 'member' });
    }
    const verifier = oauth.generateRandomCodeVerifier();
    const nonce = oauth.generateRandomNonce();
    const state = oauth.generateRandomState();
    const { code } = await t.svc.authEngine.tokens.codes.issue({
      clientId,
      userId: user.id,
      organizationId,
      redirectUri: REDIRECT_URI,
      codeChallenge: await oauth.calculatePKCECodeChallenge(verifier),
      scopes,
      resource: null,
      nonce,
      authTime: t.clock.now(),
      amr: ['pwd'],
    });
    const callback = new URL(codeRedirect({ redirectUri: REDIRECT_URI, state }, code, scopes, issuer.href));
    return { user, organizationId, verifier, nonce, state, callback };
  }

  it('discovers the endpoints that exist', () => {
    expect(as).toMatchObject({
      issuer: issuer.href,
      authorization_endpoint: `${issuer.href}/authorize`,
      token_endpoint: `${issuer.href}/token`,
      userinfo_endpoint: `${issuer.href}/userinfo`,
      jwks_uri: `${issuer.href}/.well-known/jwks.json`,
      authorization_response_iss_parameter_supported: true,
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      grant_types_supported: [
        'authorization_code',
        'refresh_token',
        'client_credentials',
        'urn:ietf:params:oauth:grant-type:device_code',
      ],
      device_authorization_endpoint: `${issuer.href}/device_authorization`,
      code_challenge_methods_supported: ['S256'],
      id_token_signing_alg_values_supported: ['RS256'],
    });
  });

  it('a public client: code + PKCE, strict ID token validation, refresh, userinfo', async () => {
    const registered = await t.svc.admin.createClientAsync({
      clientId: 'spa',
      name: 'SPA',
      audience: 'https://api.example.com',
      redirectUris: [REDIRECT_URI],
      isFirstParty: true,
      allowedScopes: ['openid', 'profile', 'email'],
    });
    const client: oauth.Client = { client_id: registered.clientId, [oauth.clockSkew]: skew };
    const { user, organizationId, verifier, nonce, state, callback } = await authorize(
      client.client_id,
      ['openid', 'profile', 'email'],
      true,
    );

    // RFC 9207: the response's iss must equal the discovered issuer.
    const params = oauth.validateAuthResponse(as, client, callback, state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params,
      REDIRECT_URI,
      verifier,
      INSECURE,
    );
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response, {
      expectedNonce: nonce,
      requireIdToken: true,
      maxAge: 300,
    });
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 900, scope: 'openid profile email' });
    const claims = oauth.getValidatedIdTokenClaims(tokens);
    expect(claims).toMatchObject({
      iss: issuer.href,
      sub: user.id,
      aud: client.client_id,
      nonce,
      auth_time: Math.floor(t.clock.now() / 1000),
      org_id: organizationId,
      email: user.email,
    });

    // The signatures, with the published keys.
    const jwks = createRemoteJWKSet(new URL(as.jwks_uri ?? ''));
    const currentDate = new Date(t.clock.now());
    await jwtVerify(tokens.id_token ?? '', jwks, {
      issuer: issuer.href,
      audience: client.client_id,
      currentDate,
    });
    const access = await jwtVerify(tokens.access_token, jwks, {
      issuer: issuer.href,
      audience: 'https://api.example.com',
      typ: 'at+jwt',
      currentDate,
    });
    expect(access.payload).toMatchObject({
      sub: user.id,
      client_id: client.client_id,
      org_id: organizationId,
    });

    // Refresh: a new pair and an ID token without nonce for the same subject.
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token ?? '', INSECURE),
    );
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(refreshed.scope).toBe('openid profile email');
    const refreshedClaims = oauth.getValidatedIdTokenClaims(refreshed);
    expect(refreshedClaims?.sub).toBe(user.id);
    expect(refreshedClaims).not.toHaveProperty('nonce');

    // Userinfo with the refreshed access token, subject checked by the library.
    const userinfo = await oauth.processUserInfoResponse(
      as,
      client,
      user.id,
      await oauth.userInfoRequest(as, client, refreshed.access_token, INSECURE),
    );
    expect(userinfo).toMatchObject({
      sub: user.id,
      name: 'Ann Example',
      email: user.email,
      email_verified: false,
      amr: ['pwd'],
      org_id: organizationId,
    });

    // The code is single use; its replay revokes the session it created, so the tokens stop working.
    const replay = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params,
      REDIRECT_URI,
      verifier,
      INSECURE,
    );
    await expect(
      oauth.processAuthorizationCodeResponse(as, client, replay, { expectedNonce: nonce }),
    ).rejects.toMatchObject({ error: 'invalid_grant', status: 400 });

    await expect(
      oauth.processUserInfoResponse(
        as,
        client,
        user.id,
        await oauth.userInfoRequest(as, client, refreshed.access_token, INSECURE),
      ),
    ).rejects.toMatchObject({ status: 401, cause: [{ parameters: { error: 'invalid_token' } }] });
  });

  it('userinfo challenges are parsed by the library: insufficient_scope, invalid_token', async () => {
    const registered = await t.svc.admin.createClientAsync({
      clientId: 'profile-only',
      name: 'Profile only',
      audience: 'https://api.example.com',
      redirectUris: [REDIRECT_URI],
      allowedScopes: ['profile'],
    });
    const client: oauth.Client = { client_id: registered.clientId, [oauth.clockSkew]: skew };
    const { verifier, state, callback } = await authorize(client.client_id, ['profile']);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(
        as,
        client,
        oauth.None(),
        oauth.validateAuthResponse(as, client, callback, state),
        REDIRECT_URI,
        verifier,
        INSECURE,
      ),
    );
    expect(tokens.id_token).toBeUndefined();

    const insufficient = await oauth.userInfoRequest(as, client, tokens.access_token, INSECURE);
    await expect(
      oauth.processUserInfoResponse(as, client, oauth.skipSubjectCheck, insufficient),
    ).rejects.toMatchObject({
      status: 403,
      cause: [{ scheme: 'bearer', parameters: { error: 'insufficient_scope' } }],
    });
    const invalid = await oauth.userInfoRequest(as, client, 'not.a.token', INSECURE);
    await expect(
      oauth.processUserInfoResponse(as, client, oauth.skipSubjectCheck, invalid),
    ).rejects.toMatchObject({
      status: 401,
      cause: [{ scheme: 'bearer', parameters: { error: 'invalid_token' } }],
    });
  });

  it('a confidential client: client_secret_basic for the code, client_secret_post for client credentials', async () => {
    const basic = await t.svc.admin.createClientAsync({
      clientId: 'web:backend',
      name: 'Backend',
      audience: 'https://api.example.com',
      redirectUris: [REDIRECT_URI],
      allowedScopes: ['openid', 'email'],
      tokenEndpointAuthMethod: 'client_secret_basic',
    });
    const client: oauth.Client = { client_id: basic.clientId, [oauth.clockSkew]: skew };
    const { user, verifier, nonce, state, callback } = await authorize(client.client_id, ['openid', 'email']);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(
        as,
        client,
        oauth.ClientSecretBasic(basic.clientSecret ?? ''),
        oauth.validateAuthResponse(as, client, callback, state),
        REDIRECT_URI,
        verifier,
        INSECURE,
      ),
      { expectedNonce: nonce, requireIdToken: true },
    );
    expect(oauth.getValidatedIdTokenClaims(tokens)?.sub).toBe(user.id);
    await expect(
      oauth.processRefreshTokenResponse(
        as,
        client,
        await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token ?? '', INSECURE),
      ),
    ).rejects.toMatchObject({ error: 'invalid_client', status: 401 });

    const machine = await t.svc.admin.createClientAsync({
      clientId: 'worker',
      name: 'Worker',
      audience: 'https://api.example.com',
      redirectUris: [REDIRECT_URI],
      allowedScopes: ['orders:read'],
      allowedResources: [ORDERS],
      tokenEndpointAuthMethod: 'client_secret_post',
      allowClientCredentials: true,
    });
    const worker: oauth.Client = { client_id: machine.clientId, [oauth.clockSkew]: skew };
    const granted = await oauth.processClientCredentialsResponse(
      as,
      worker,
      await oauth.clientCredentialsGrantRequest(
        as,
        worker,
        oauth.ClientSecretPost(machine.clientSecret ?? ''),
        { scope: 'orders:read', resource: ORDERS },
        INSECURE,
      ),
    );
    expect(granted).toMatchObject({ token_type: 'bearer', scope: 'orders:read', expires_in: 900 });
    expect(granted.refresh_token).toBeUndefined();
    expect(granted.id_token).toBeUndefined();
    const verified = await jwtVerify(granted.access_token, createRemoteJWKSet(new URL(as.jwks_uri ?? '')), {
      issuer: issuer.href,
      audience: ORDERS,
      typ: 'at+jwt',
      currentDate: new Date(t.clock.now()),
    });
    expect(verified.payload).toMatchObject({ sub: 'worker', client_id: 'worker', scope: 'orders:read' });
  });
});

import type { FastifyInstance } from 'fastify';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthTestApp } from '../../test-support/oauth-http.js';
import { freePort } from '../../test-support/postgres-launcher.js';
import { createTestSvc, type TestSvc } from '../../test-support/test-svc.js';

/**
 * The device authorization grant with a real OAuth client library (oauth4webapi) against a real
 * listening Svc: discovery, RFC 8628 §3.1-3.2 (deviceAuthorizationRequest and its strict response
 * check), polling (authorization_pending, slow_down with the new interval), and the token response with
 * strict ID token validation once a user approves. The approval is the in-process operation the hosted
 * and headless device pages call.
 */

const INSECURE = { [oauth.allowInsecureRequests]: true } as const;

/** The OAuth error a refused poll carries, as the library reports it. */
async function refusal(promise: Promise<unknown>): Promise<{ error: string; interval: unknown }> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(oauth.ResponseBodyError);
  const body = error as oauth.ResponseBodyError;
  return { error: body.error, interval: body.cause.interval };
}

describe('oauth4webapi: the device authorization grant against Svc', () => {
  let t: TestSvc;
  let app: FastifyInstance;
  let issuer: URL;
  let as: oauth.AuthorizationServer;
  let skew: number;

  beforeAll(async () => {
    const port = await freePort();
    t = await createTestSvc('sqlite', { publicOrigin: `http://127.0.0.1:${port}` });
    app = await oauthTestApp(t);
    await app.listen({ port, host: '127.0.0.1' });
    issuer = new URL(t.svc.config.issuer);
    // oauth4webapi's clock runs on Date.now(); Svc's on the fake clock.
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

  it('discovers the endpoint and the grant', () => {
    expect(as.device_authorization_endpoint).toBe(`${issuer.href}/device_authorization`);
    expect(as.grant_types_supported).toContain('urn:ietf:params:oauth:grant-type:device_code');
  });

  it('a public device client: start, pending, slow_down, approval, tokens with a valid ID token', async () => {
    const registered = await t.svc.admin.createClientAsync({
      clientId: 'living-room-tv',
      name: 'Living room TV',
      audience: 'https://api.example.com',
      redirectUris: ['https://tv.example.com/unused'],
      isFirstParty: true,
      allowDeviceAuthorization: true,
      allowedScopes: ['openid', 'profile', 'email'],
    });
    const user = await t.svc.admin.createUserAsync({
      displayName: 'Dana Device',
      email: 'dana@example.com',
      password: 'correct horse battery staple',
    });
    const client: oauth.Client = { client_id: registered.clientId, [oauth.clockSkew]: skew };

    const started = await oauth.processDeviceAuthorizationResponse(
      as,
      client,
      await oauth.deviceAuthorizationRequest(as, client, oauth.None(), { scope: 'openid profile' }, INSECURE),
    );
    expect(started).toMatchObject({
      verification_uri: `${issuer.href}/device`,
      expires_in: 900,
      interval: 5,
    });
    expect(started.verification_uri_complete).toBe(`${issuer.href}/device?user_code=${started.user_code}`);

    const poll = async () =>
      oauth.processDeviceCodeResponse(
        as,
        client,
        await oauth.deviceCodeGrantRequest(as, client, oauth.None(), started.device_code, INSECURE),
      );
    expect(await refusal(poll())).toEqual({ error: 'authorization_pending', interval: undefined });
    expect(await refusal(poll())).toEqual({ error: 'slow_down', interval: 10 });

    // The user types the code on another device, signs in and approves.
    const shown = await t.svc.auth.resolveDeviceAuthorizationAsync(started.user_code.toLowerCase());
    expect(shown).toMatchObject({
      clientName: 'Living room TV',
      scopes: ['openid', 'profile'],
      status: 'pending',
    });
    await t.svc.auth.approveDeviceAuthorizationAsync({
      userCode: started.user_code,
      userId: user.id,
      organizationId: null,
      amr: ['pwd'],
    });
    t.clock.advance(10_000);

    const tokens = await poll();
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 900, scope: 'openid profile' });
    const claims = oauth.getValidatedIdTokenClaims(tokens);
    expect(claims).toMatchObject({
      iss: issuer.href,
      sub: user.id,
      aud: client.client_id,
      name: 'Dana Device',
    });
    const jwks = createRemoteJWKSet(new URL(as.jwks_uri ?? ''));
    const currentDate = new Date(t.clock.now());
    await jwtVerify(tokens.id_token ?? '', jwks, {
      issuer: issuer.href,
      audience: client.client_id,
      currentDate,
    });
    await jwtVerify(tokens.access_token, jwks, {
      issuer: issuer.href,
      audience: 'https://api.example.com',
      typ: 'at+jwt',
      currentDate,
    });

    // Issued once.
    expect((await refusal(poll())).error).toBe('invalid_grant');
  });

  it('a confidential device client authenticates both requests; a denial ends in access_denied', async () => {
    const registered = await t.svc.admin.createClientAsync({
      clientId: 'kiosk',
      name: 'Kiosk',
      audience: 'https://api.example.com',
      redirectUris: ['https://kiosk.example.com/unused'],
      allowDeviceAuthorization: true,
      tokenEndpointAuthMethod: 'client_secret_basic',
      allowedScopes: ['profile'],
    });
    const client: oauth.Client = { client_id: registered.clientId, [oauth.clockSkew]: skew };
    const auth = oauth.ClientSecretBasic(registered.clientSecret ?? '');
    const started = await oauth.processDeviceAuthorizationResponse(
      as,
      client,
      await oauth.deviceAuthorizationRequest(as, client, auth, { scope: 'profile' }, INSECURE),
    );
    await t.svc.auth.denyDeviceAuthorizationAsync({ userCode: started.user_code });
    const denied = oauth.processDeviceCodeResponse(
      as,
      client,
      await oauth.deviceCodeGrantRequest(as, client, auth, started.device_code, INSECURE),
    );
    expect((await refusal(denied)).error).toBe('access_denied');
  });
});

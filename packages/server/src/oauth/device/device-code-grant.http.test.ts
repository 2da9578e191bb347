import type { LightMyRequestResponse } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, form, oauthGiven, type OAuthGiven } from '../../test-support/oauth-http.js';
import { createTestSvc, type TestSvc } from '../../test-support/test-svc.js';

const GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const FILES = 'https://files.example.com';

interface Started {
  readonly device_code: string;
  readonly user_code: string;
}

/** Asserts an OAuth error answer: status, code (and description), never cached. */
function expectOAuthError(
  response: LightMyRequestResponse,
  status: number,
  error: string,
): Record<string, unknown> {
  expect(response.statusCode).toBe(status);
  const body = response.json<Record<string, unknown>>();
  expect(body.error).toBe(error);
  expect(typeof body.error_description).toBe('string');
  expect(response.headers['cache-control']).toBe('no-store');
  return body;
}

describe('POST /token grant_type=urn:ietf:params:oauth:grant-type:device_code', () => {
  let t: TestSvc;
  let given: OAuthGiven;
  let clientId: string;
  let audience: string;
  let userId: string;

  beforeAll(async () => {
    t = await createTestSvc();
    given = await oauthGiven(t);
    ({ clientId, audience } = await given.client({
      allowDeviceAuthorization: true,
      allowedResources: [FILES],
    }));
    userId = (await given.user({ email: 'tv-owner@example.com' })).id;
  });
  afterAll(async () => {
    await t.close();
  });

  const start = async (params: Record<string, string> = {}, headers: Record<string, string> = {}) => {
    const response = await given.inject({
      method: 'POST',
      url: '/svc/auth/device_authorization',
      headers: { ...FORM, ...headers },
      payload: form({ client_id: clientId, scope: 'openid email', ...params }),
    });
    expect(response.statusCode).toBe(200);
    return response.json<Started>();
  };
  const poll = (deviceCode: string, params: Record<string, string | undefined> = {}, headers = {}) =>
    given.token({ grant_type: GRANT_TYPE, client_id: clientId, device_code: deviceCode, ...params }, headers);
  const approve = (userCode: string) =>
    t.svc.auth.approveDeviceAuthorizationAsync({ userCode, userId, organizationId: null, amr: ['pwd'] });

  it('is advertised by discovery with the device authorization endpoint', async () => {
    const metadata = (
      await given.inject({ method: 'GET', url: '/svc/auth/.well-known/oauth-authorization-server' })
    ).json<Record<string, unknown>>();
    expect(metadata.device_authorization_endpoint).toBe(`${t.svc.config.issuer}/device_authorization`);
    expect(metadata.grant_types_supported).toContain(GRANT_TYPE);
  });

  it('pending, then slow_down with the new interval, then tokens once, then invalid_grant', async () => {
    const started = await start();
    const pending = expectOAuthError(await poll(started.device_code), 400, 'authorization_pending');
    expect(pending).not.toHaveProperty('interval');
    const slow = expectOAuthError(await poll(started.device_code), 400, 'slow_down');
    expect(slow.interval).toBe(10);
    t.clock.advance(10_000);
    expectOAuthError(await poll(started.device_code), 400, 'authorization_pending');

    expect(await approve(started.user_code)).toEqual({ status: 'approved' });
    const issued = await poll(started.device_code);
    expect(issued.statusCode).toBe(200);
    expect(issued.headers['cache-control']).toBe('no-store');
    const body = issued.json<Record<string, unknown>>();
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 900, scope: 'openid email' });
    expect(Object.keys(body).sort()).toEqual([
      'access_token',
      'expires_in',
      'id_token',
      'refresh_token',
      'scope',
      'token_type',
    ]);
    expect(decodeJwt(String(body.id_token))).toMatchObject({
      sub: userId,
      aud: clientId,
      email: 'tv-owner@example.com',
    });

    const replay = expectOAuthError(await poll(started.device_code), 400, 'invalid_grant');
    expect(replay.error_description).toBe('The device code was already used.');
    // The refresh token of the device's session rotates at /token like any other.
    const refreshed = await given.token({
      grant_type: 'refresh_token',
      refresh_token: String(body.refresh_token),
    });
    expect(refreshed.statusCode).toBe(200);
  });

  it('access_denied after a denial, expired_token after expires_in', async () => {
    const denied = await start();
    await t.svc.auth.denyDeviceAuthorizationAsync({ userCode: denied.user_code, userId });
    expectOAuthError(await poll(denied.device_code), 400, 'access_denied');

    const late = await start();
    t.clock.advance(900_000);
    expectOAuthError(await poll(late.device_code), 400, 'expired_token');
  });

  it('the resource must equal the bound one (invalid_target) and be one the client may have', async () => {
    const bound = await start({ resource: FILES });
    await approve(bound.user_code);
    expectOAuthError(await poll(bound.device_code, { resource: audience }), 400, 'invalid_target');
    expectOAuthError(
      await poll(bound.device_code, { resource: 'https://evil.example.com' }),
      400,
      'invalid_target',
    );
    const ok = await poll(bound.device_code, { resource: FILES });
    expect(ok.statusCode).toBe(200);
    expect(decodeJwt(ok.json<{ access_token: string }>().access_token).aud).toBe(FILES);
  });

  it('invalid_grant for an unknown code and for another client’s code; invalid_request without one', async () => {
    const started = await start();
    await approve(started.user_code);
    expectOAuthError(await poll('x'.repeat(43)), 400, 'invalid_grant');
    const other = (await given.client({ allowDeviceAuthorization: true })).clientId;
    expectOAuthError(await poll(started.device_code, { client_id: other }), 400, 'invalid_grant');
    expectOAuthError(await poll(started.device_code, { device_code: undefined }), 400, 'invalid_request');
    expect((await poll(started.device_code)).statusCode).toBe(200);
  });

  it('invalid_client for an unknown client; unauthorized_client once the client no longer allows the grant', async () => {
    const started = await start();
    await approve(started.user_code);
    expectOAuthError(await poll(started.device_code, { client_id: 'nobody' }), 401, 'invalid_client');
    expectOAuthError(await poll(started.device_code, { client_id: undefined }), 401, 'invalid_client');
    const db = t.svc.database.db;
    await db
      .updateTable('clients')
      .set({ allowDeviceAuthorization: 0 })
      .where('clientId', '=', clientId)
      .execute();
    try {
      expectOAuthError(await poll(started.device_code), 400, 'unauthorized_client');
    } finally {
      await db
        .updateTable('clients')
        .set({ allowDeviceAuthorization: 1 })
        .where('clientId', '=', clientId)
        .execute();
    }
    expect((await poll(started.device_code)).statusCode).toBe(200);
  });

  it('a confidential client authenticates its polls', async () => {
    const created = await given.client({
      allowDeviceAuthorization: true,
      tokenEndpointAuthMethod: 'client_secret_basic',
    });
    const authorization = basicAuth(created.clientId, created.clientSecret ?? '');
    const started = await start({ client_id: '' }, { authorization });
    await approve(started.user_code);
    const asConfidential = { client_id: created.clientId };
    expectOAuthError(await poll(started.device_code, asConfidential), 401, 'invalid_client');
    const wrong = await poll(
      started.device_code,
      { client_id: undefined },
      { authorization: basicAuth(created.clientId, 'nope') },
    );
    expectOAuthError(wrong, 401, 'invalid_client');
    expect((await poll(started.device_code, { client_id: undefined }, { authorization })).statusCode).toBe(
      200,
    );
  });

  it('20 concurrent polls of an approved request: exactly one 200', async () => {
    const started = await start();
    await approve(started.user_code);
    const responses = await Promise.all(Array.from({ length: 20 }, () => poll(started.device_code)));
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const response of responses.filter((r) => r.statusCode !== 200)) {
      expectOAuthError(response, 400, 'invalid_grant');
    }
  });
});

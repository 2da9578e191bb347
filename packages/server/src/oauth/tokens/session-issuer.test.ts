import { createHash } from 'node:crypto';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { ClientRecord } from '../../directory/repository.js';
import { DAY_MS, MINUTE_MS } from '../../kernel/clock.js';
import { sha256Hex } from '../../kernel/crypto.js';
import { createAuthHarness, HARNESS_ISSUER, type AuthHarness } from '../../test-support/auth-harness.js';
import { describeAboveStorage } from '../../test-support/databases.js';
import { toOAuthTokenResponse } from './issued-tokens.js';

describeAboveStorage('session issuer', (kind) => {
  let h: AuthHarness;
  let client: ClientRecord;
  let user: { id: string };
  /** The user's address as typed, in mixed case. */
  let email: string;
  let serial = 0;

  // One app for the file: each test has a client and a user of its own.
  beforeAll(async () => {
    h = await createAuthHarness(kind);
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    client = (await h.given.client({ audience: 'https://api.example.com' })).record;
    serial += 1;
    email = `Ann${serial}@Example.com`;
    user = await h.given.user({ displayName: 'Ann Smith', email });
  });

  const verify = async (jwt: string, audience: string) => {
    const jwks = JSON.parse((await h.keys.jwks()).body.toString()) as JSONWebKeySet;
    return jwtVerify(jwt, createLocalJWKSet(jwks), {
      issuer: HARNESS_ISSUER,
      audience,
      algorithms: ['RS256'],
      currentDate: new Date(h.clock.now()),
    });
  };

  const issue = (fields: {
    scopes: string[];
    organizationId?: string | null;
    resource?: string | null;
    includeIdToken?: boolean;
  }) =>
    h.engine.tokens.sessions.issueForNewSession({
      userId: user.id,
      client,
      organizationId: fields.organizationId ?? null,
      scopes: fields.scopes,
      resource: fields.resource ?? null,
      amr: ['pwd'],
      authTime: h.clock.now() - 5 * MINUTE_MS,
      nonce: 'abc',
      includeIdToken: fields.includeIdToken ?? true,
      userAgent: 'test-agent',
      ipAddress: '203.0.113.9',
    });

  it('creates a session with the configured deadlines and a hashed first refresh token', async () => {
    const now = h.clock.now();
    const issued = await issue({ scopes: ['openid'] });
    const session = await h.db
      .selectFrom('sessions')
      .selectAll()
      .where('id', '=', issued.sessionId)
      .executeTakeFirstOrThrow();
    expect(session).toMatchObject({
      userId: user.id,
      clientId: client.clientId,
      grantedScopesJson: '["openid"]',
      amrJson: '["pwd"]',
      authTime: now - 5 * MINUTE_MS,
      idleExpiresAt: now + 14 * DAY_MS,
      absoluteExpiresAt: now + 90 * DAY_MS,
      userAgent: 'test-agent',
      ipAddress: '203.0.113.9',
      revokedAt: null,
    });
    const token = await h.db
      .selectFrom('refreshTokens')
      .selectAll()
      .where('sessionId', '=', issued.sessionId)
      .executeTakeFirstOrThrow();
    expect(token).toMatchObject({
      tokenHash: sha256Hex(issued.refreshToken),
      expiresAt: now + 30 * DAY_MS,
      tokenFormat: 2,
    });
    // The token names its row, then carries a 256-bit secret.
    expect(issued.refreshToken).toMatch(/^rft_[0-9a-f]{32}\.[A-Za-z0-9_-]{43}$/);
    expect(issued.refreshToken.startsWith(`${token.id}.`)).toBe(true);
    expect(issued.refreshTokenExpiresAt).toBe(now + 30 * DAY_MS);
    expect(issued.accessTokenExpiresAt).toBe(now + 15 * MINUTE_MS);
    expect(issued.expiresIn).toBe(900);
  });

  it('mints an RS256 at+jwt access token with sub, aud, sid, client_id, scope, and org_id when scoped', async () => {
    const issued = await issue({ scopes: ['openid', 'profile'] });
    const { payload, protectedHeader } = await verify(issued.accessToken, 'https://api.example.com');
    expect(protectedHeader).toMatchObject({ alg: 'RS256', typ: 'at+jwt' });
    expect(payload).toMatchObject({
      iss: HARNESS_ISSUER,
      sub: user.id,
      aud: 'https://api.example.com',
      sid: issued.sessionId,
      client_id: client.clientId,
      scope: 'openid profile',
    });
    expect(payload).not.toHaveProperty('org_id');
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(900);
    expect(typeof payload.jti).toBe('string');

    const org = await h.given.organization();
    await h.given.membership(org.id, user.id);
    const scoped = await issue({ scopes: [], organizationId: org.id, resource: 'https://files.example.com' });
    const { payload: scopedPayload } = await verify(scoped.accessToken, 'https://files.example.com');
    expect(scopedPayload).toMatchObject({ org_id: org.id, aud: 'https://files.example.com' });
    expect(scopedPayload).not.toHaveProperty('scope');
  });

  it('mints ID tokens whose user claims follow the granted scopes', async () => {
    const full = await issue({ scopes: ['openid', 'profile', 'email'] });
    const { payload } = await verify(full.idToken ?? '', client.clientId);
    const digest = createHash('sha256').update(full.accessToken).digest();
    expect(payload).toMatchObject({
      sub: user.id,
      aud: client.clientId,
      nonce: 'abc',
      amr: ['pwd'],
      auth_time: Math.floor((h.clock.now() - 5 * MINUTE_MS) / 1000),
      sid: full.sessionId,
      at_hash: digest.subarray(0, 16).toString('base64url'),
      name: 'Ann Smith',
      preferred_username: email,
      email,
      email_verified: false,
    });
    expect(typeof payload.updated_at).toBe('number');

    const bare = await issue({ scopes: ['openid'] });
    const { payload: barePayload } = await verify(bare.idToken ?? '', client.clientId);
    for (const claim of ['name', 'preferred_username', 'updated_at', 'email', 'email_verified', 'org_id']) {
      expect(barePayload).not.toHaveProperty(claim);
    }

    const none = await issue({ scopes: ['openid'], includeIdToken: false });
    expect(none).not.toHaveProperty('idToken');
  });

  it('shapes the token endpoint body: scope as granted (empty string when empty), id_token only when issued', async () => {
    const empty = toOAuthTokenResponse(await issue({ scopes: [], includeIdToken: false }));
    expect(empty).toMatchObject({ token_type: 'Bearer', expires_in: 900, scope: '' });
    expect(empty).not.toHaveProperty('id_token');
    expect(toOAuthTokenResponse(await issue({ scopes: ['openid', 'email'] }))).toMatchObject({
      scope: 'openid email',
      id_token: expect.any(String) as string,
    });
  });

  it('refuses to issue for a deactivated user', async () => {
    await h.db.updateTable('users').set({ active: 0 }).where('id', '=', user.id).execute();
    await expect(issue({ scopes: [] })).rejects.toMatchObject({ code: 'invalid_grant' });
  });
});

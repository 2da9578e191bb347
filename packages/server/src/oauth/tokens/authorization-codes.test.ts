import { decodeJwt } from 'jose';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { ClientRecord } from '../../directory/repository.js';
import { MINUTE_MS } from '../../kernel/clock.js';
import { sha256Hex } from '../../kernel/crypto.js';
import { createAuthHarness, type AuthHarness } from '../../test-support/auth-harness.js';
import { describeEachDatabase } from '../../test-support/databases.js';
import { UnknownGrantError } from '../errors.js';
import { s256Challenge } from '../pkce.js';

const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const REDIRECT = 'https://app.example.com/callback';

describeEachDatabase('authorization codes', (kind) => {
  let h: AuthHarness;
  let client: ClientRecord;
  let userId: string;
  let email: string;

  // One app for the file: each test has a client and a user of its own.
  beforeAll(async () => {
    h = await createAuthHarness(kind);
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    client = (await h.given.client({ isFirstParty: false, allowedResources: ['https://files.example.com'] }))
      .record;
    ({ id: userId, email } = await h.given.user({ displayName: 'Ann' }));
  });
  /** The codes issued to the test's client. */
  const codeRow = () =>
    h.db
      .selectFrom('authorizationCodes')
      .selectAll()
      .where('clientId', '=', client.clientId)
      .executeTakeFirstOrThrow();

  const issue = (fields: { scopes?: string[]; resource?: string | null; challenge?: string | null } = {}) =>
    h.engine.tokens.codes.issue({
      clientId: client.clientId,
      userId,
      organizationId: null,
      redirectUri: REDIRECT,
      codeChallenge: fields.challenge === undefined ? s256Challenge(VERIFIER) : fields.challenge,
      scopes: fields.scopes ?? ['openid', 'email'],
      resource: fields.resource ?? null,
      nonce: 'n-0S6_WzA2Mj',
      authTime: h.clock.now() - MINUTE_MS,
      amr: ['pwd'],
    });

  const redeem = (
    code: string,
    extra: {
      redirectUri?: string;
      codeVerifier?: string | null;
      resource?: string;
      client?: ClientRecord;
    } = {},
  ) =>
    h.engine.tokens.codes.redeem({
      code,
      client: extra.client ?? client,
      redirectUri: extra.redirectUri ?? REDIRECT,
      codeVerifier: extra.codeVerifier === undefined ? VERIFIER : extra.codeVerifier,
      ...(extra.resource === undefined ? {} : { resource: extra.resource }),
    });

  const errorOf = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error,
    );

  it('issues a hashed five-minute code and redeems it once for tokens with the nonce in the ID token', async () => {
    const { code, expiresAt } = await issue();
    expect(expiresAt).toBe(h.clock.now() + 5 * MINUTE_MS);
    const row = await codeRow();
    expect(row.codeHash).toBe(sha256Hex(code));

    const tokens = await redeem(code);
    expect(tokens.scope).toEqual(['openid', 'email']);
    const idToken = decodeJwt(tokens.idToken ?? '');
    expect(idToken).toMatchObject({
      nonce: 'n-0S6_WzA2Mj',
      aud: client.clientId,
      sub: userId,
      email,
    });
    expect(idToken).not.toHaveProperty('name');
    const stored = await codeRow();
    expect(stored).toMatchObject({ consumedAt: h.clock.now(), sessionId: tokens.sessionId });
  });

  it('answers reuse with invalid_grant and revokes the session the first redemption created', async () => {
    const { code } = await issue();
    const tokens = await redeem(code);
    expect(await errorOf(redeem(code))).toMatchObject({
      code: 'invalid_grant',
      message: 'The authorization code was already used.',
    });
    const session = await h.db
      .selectFrom('sessions')
      .selectAll()
      .where('id', '=', tokens.sessionId)
      .executeTakeFirstOrThrow();
    expect(session).toMatchObject({ revokedReason: 'authorization_code_reuse' });
    expect(
      await errorOf(h.engine.tokens.refresh.refresh({ refreshToken: tokens.refreshToken, client })),
    ).toMatchObject({
      code: 'invalid_grant',
    });
    expect(await h.auditKinds({ clientId: client.clientId })).toContain(
      'oauth.authorization_code.reuse_detected',
    );
  });

  it('lets exactly one of concurrent redemptions through and revokes what it issued', async () => {
    const { code } = await issue();
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => redeem(code)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const sessions = await h.db.selectFrom('sessions').selectAll().where('userId', '=', userId).execute();
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.revokedReason).toBe('authorization_code_reuse');
  });

  it('checks PKCE: wrong verifier is invalid_grant; missing or malformed is invalid_request; the code survives', async () => {
    const { code } = await issue();
    expect(await errorOf(redeem(code, { codeVerifier: `${VERIFIER.slice(0, -1)}A` }))).toMatchObject({
      code: 'invalid_grant',
    });
    expect(await errorOf(redeem(code, { codeVerifier: null }))).toMatchObject({ code: 'invalid_request' });
    expect(await errorOf(redeem(code, { codeVerifier: 'a'.repeat(42) }))).toMatchObject({
      code: 'invalid_request',
    });
    expect(await errorOf(redeem(code, { codeVerifier: 'a'.repeat(129) }))).toMatchObject({
      code: 'invalid_request',
    });
    expect(await errorOf(redeem(code, { codeVerifier: `${'a'.repeat(42)}+` }))).toMatchObject({
      code: 'invalid_request',
    });
    // A 128-character verifier of every unreserved character class is accepted.
    const long = `${'A-._~z9'.repeat(18)}xy`;
    expect(long).toHaveLength(128);
    const bound = await issue({ challenge: s256Challenge(long) });
    expect((await redeem(bound.code, { codeVerifier: long })).sessionId).toMatch(/^ses_/);
    // None of the failures consumed the first code.
    expect((await redeem(code)).sessionId).toMatch(/^ses_/);
  });

  it('refuses a verifier for a code that was not PKCE-bound', async () => {
    const { code } = await issue({ challenge: null });
    expect(await errorOf(redeem(code))).toMatchObject({ code: 'invalid_grant' });
    expect((await redeem(code, { codeVerifier: null })).sessionId).toMatch(/^ses_/);
  });

  it('refuses a different redirect_uri, resource or client, and an expired code', async () => {
    const { code } = await issue({ resource: 'https://files.example.com' });
    expect(await errorOf(redeem(code, { redirectUri: 'https://app.example.com/other' }))).toMatchObject({
      code: 'invalid_grant',
    });
    expect(await errorOf(redeem(code, { resource: 'https://other.example.com' }))).toMatchObject({
      code: 'invalid_target',
    });
    const other = (await h.given.client()).record;
    expect(await errorOf(redeem(code, { client: other }))).toMatchObject({ code: 'invalid_grant' });
    const tokens = await redeem(code, { resource: 'https://files.example.com' });
    expect(decodeJwt(tokens.accessToken).aud).toBe('https://files.example.com');

    const late = await issue();
    h.clock.advance(5 * MINUTE_MS);
    expect(await errorOf(redeem(late.code))).toMatchObject({
      code: 'invalid_grant',
      message: 'The authorization code has expired.',
    });
    // Only a code Svc does not know is one a guesser could have sent (counted per address at /token).
    expect(await errorOf(redeem('unknown-code'))).toBeInstanceOf(UnknownGrantError);
    expect(await errorOf(redeem(late.code))).not.toBeInstanceOf(UnknownGrantError);
    expect(await errorOf(redeem(code))).not.toBeInstanceOf(UnknownGrantError);
  });

  it('refuses a code of a user deactivated since', async () => {
    const { code } = await issue();
    await h.db.updateTable('users').set({ active: 0 }).where('id', '=', userId).execute();
    expect(await errorOf(redeem(code))).toMatchObject({ code: 'invalid_grant' });
  });
});

import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { afterEach, beforeEach, expect, inject, it } from 'vitest';
import { DAY_MS } from '../../kernel/clock.js';
import { SecretBox } from '../../kernel/crypto.js';
import { randomIds } from '../../kernel/ids.js';
import { DEFAULT_SECURITY_SETTINGS } from '../../settings/security-settings.js';
import { openDatabase, type DatabaseHandle } from '../../storage/database.js';
import { signingKeyRepository } from '../../storage/repositories/signing-keys.js';
import { createTestDatabase, describeAboveStorage, type TestDatabase } from '../../test-support/databases.js';
import { FakeClock } from '../../test-support/fake-clock.js';
import { SigningKeys } from '../keys/signing-keys.js';
import { SigningThread } from './signing-thread.js';
import { CLOCK_SKEW_SECONDS, TokenService } from './token-service.js';

const ISSUER = 'http://localhost:8080/svc/auth';

describeAboveStorage('token service', (kind) => {
  let testDb: TestDatabase;
  let handle: DatabaseHandle;
  let clock: FakeClock;
  let keys: SigningKeys;
  let tokens: TokenService;
  let signer: SigningThread;

  beforeEach(async () => {
    testDb = await createTestDatabase(kind, 'keyed');
    handle = openDatabase(testDb.target);
    clock = new FakeClock();
    keys = new SigningKeys({
      repository: signingKeyRepository(handle.db),
      secretBox: new SecretBox(Buffer.from(inject('testMasterKey'), 'hex')),
      clock,
      settings: async () => DEFAULT_SECURITY_SETTINGS,
    });
    await keys.ensureActiveKey();
    signer = new SigningThread();
    tokens = new TokenService({ keys, issuer: ISSUER, clock, ids: randomIds, signer });
  });
  afterEach(async () => {
    await signer.close();
    await handle.close();
    await testDb.drop();
  });

  it('signs RS256 JWTs that an independent verifier accepts with the published JWKS', async () => {
    const jwt = await tokens.sign(
      { scope: 'openid' },
      { subject: 'usr_1', audience: 'api', expiresInSeconds: 900, typ: 'at+jwt' },
    );
    const jwks = JSON.parse((await keys.jwks()).body.toString()) as JSONWebKeySet;
    const { payload, protectedHeader } = await jwtVerify(jwt, createLocalJWKSet(jwks), {
      issuer: ISSUER,
      audience: 'api',
      currentDate: new Date(clock.now()),
    });
    expect(protectedHeader).toMatchObject({ alg: 'RS256', typ: 'at+jwt', kid: (await keys.activeKey()).kid });
    expect(payload).toMatchObject({
      iss: ISSUER,
      sub: 'usr_1',
      aud: 'api',
      scope: 'openid',
      iat: clock.now() / 1000,
      exp: clock.now() / 1000 + 900,
    });
    expect(typeof payload.jti).toBe('string');
  });

  it('verifies issuer, audience and lifetime with one minute of clock skew', async () => {
    const jwt = await tokens.sign({}, { subject: 'usr_1', audience: 'api', expiresInSeconds: 60 });
    expect(await tokens.verify(jwt, { audience: 'api' })).toMatchObject({ sub: 'usr_1' });
    expect(await tokens.verify(jwt, { audience: 'other' })).toBeNull();
    clock.advance(60_000 + 59_000);
    expect(await tokens.verify(jwt, { audience: 'api' })).not.toBeNull();
    clock.advance(2_000);
    expect(await tokens.verify(jwt, { audience: 'api' })).toBeNull();
  });

  it('remembers a verified token for the same audience and typ only, and still ends it at expiry', async () => {
    const jwt = await tokens.sign({ amr: ['pwd'] }, { audience: 'api', expiresInSeconds: 60, typ: 'at+jwt' });
    const first = await tokens.verify(jwt, { audience: 'api', typ: 'at+jwt' });
    expect(first).not.toBeNull();
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first?.amr)).toBe(true);
    expect(await tokens.verify(jwt, { audience: 'api', typ: 'at+jwt' })).toBe(first);
    expect(await tokens.verify(jwt, { audience: 'other', typ: 'at+jwt' })).toBeNull();
    expect(await tokens.verify(jwt, { audience: 'api', typ: 'JWT' })).toBeNull();
    clock.advance(60_000 + CLOCK_SKEW_SECONDS * 1000);
    expect(await tokens.verify(jwt, { audience: 'api', typ: 'at+jwt' })).toBeNull();
  });

  it('rejects tampered tokens, other issuers, unknown keys and alg=none', async () => {
    const jwt = await tokens.sign({ role: 'member' }, { audience: 'api', expiresInSeconds: 60 });
    const [header, payload, signature] = jwt.split('.') as [string, string, string];
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), role: 'admin' }),
    ).toString('base64url');
    expect(await tokens.verify(`${header}.${forged}.${signature}`, { audience: 'api' })).toBeNull();
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${payload}.`;
    expect(await tokens.verify(unsigned, { audience: 'api' })).toBeNull();
    const otherIssuer = new TokenService({
      keys,
      issuer: 'https://evil.example/svc/auth',
      clock,
      ids: randomIds,
      signer,
    });
    expect(
      await tokens.verify(await otherIssuer.sign({}, { audience: 'api', expiresInSeconds: 60 }), {
        audience: 'api',
      }),
    ).toBeNull();
    expect(await tokens.verify('not-a-jwt', { audience: 'api' })).toBeNull();
  });

  it('keeps verifying tokens of a rotated-out key during the grace window only', async () => {
    const jwt = await tokens.sign({}, { audience: 'api', expiresInSeconds: (30 * DAY_MS) / 1000 });
    await keys.rotate();
    expect(await tokens.verify(jwt, { audience: 'api' })).not.toBeNull();
    clock.advance(DEFAULT_SECURITY_SETTINGS.signingKeyGraceWindowDays * DAY_MS + 1);
    expect(await tokens.verify(jwt, { audience: 'api' })).toBeNull();
  });
});

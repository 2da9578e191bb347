import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../kernel/clock.js';
import { SvcTooManyAttemptsError, SvcValidationError } from '../../kernel/errors.js';
import { createTestSvc, TEST_ORIGIN, type TestSvc } from '../../test-support/test-svc.js';
import { OAuthError } from '../errors.js';

/** The in-process device operations of SvcAuthService, through the real app factory. */
describe('SvcAuthService device operations', () => {
  let t: TestSvc;
  let clientId: string;
  let userId: string;

  beforeEach(async () => {
    t = await createTestSvc();
    clientId = (
      await t.svc.admin.createClientAsync({
        clientId: 'tv-app',
        name: 'TV app',
        audience: 'https://api.example.com',
        redirectUris: ['https://app.example.com/callback'],
        isFirstParty: true,
        allowDeviceAuthorization: true,
        allowedScopes: ['openid', 'profile'],
      })
    ).clientId;
    userId = (
      await t.svc.admin.createUserAsync({
        displayName: 'Tess',
        email: 'tess@example.com',
        password: 'correct horse battery staple',
      })
    ).id;
  });
  afterEach(async () => {
    await t.close();
  });

  it('start → resolve → poll pending → approve → poll complete (once)', async () => {
    const { auth } = t.svc;
    const started = await auth.startDeviceAuthorizationAsync(
      { clientId, scope: 'openid profile email', resource: null },
      { ipAddress: '192.0.2.9' },
    );
    expect(started).toEqual({
      deviceCode: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      userCode: expect.stringMatching(/^[B-Z]{4}-[B-Z]{4}$/),
      verificationUri: `${TEST_ORIGIN}/svc/auth/device`,
      verificationUriComplete: `${TEST_ORIGIN}/svc/auth/device?user_code=${started.userCode}`,
      expiresIn: 900,
      interval: 5,
    });
    expect(await auth.resolveDeviceAuthorizationAsync(started.userCode.toLowerCase())).toEqual({
      clientId,
      clientName: 'TV app',
      scopes: ['openid', 'profile'],
      resource: null,
      userCode: started.userCode,
      expiresAt: new Date(t.clock.now() + 900_000).toISOString(),
      status: 'pending',
    });
    expect(await auth.resolveDeviceAuthorizationAsync('BCDF-GHJK')).toBeNull();

    const poll = () => auth.pollDeviceAuthorizationAsync({ clientId, deviceCode: started.deviceCode });
    expect(await poll()).toMatchObject({ status: 'authorization_pending' });
    expect(await poll()).toMatchObject({ status: 'slow_down', interval: 10 });

    const authTime = new Date(t.clock.now() - 60_000).toISOString();
    expect(
      await auth.approveDeviceAuthorizationAsync({
        userCode: started.userCode,
        userId,
        organizationId: null,
        amr: ['otp'],
        authTime,
      }),
    ).toEqual({ status: 'approved' });
    const complete = await poll();
    if (complete.status !== 'complete') throw new Error(`expected tokens, got ${complete.status}`);
    expect(complete.tokens).toMatchObject({ clientId, organizationId: null });
    const validated = await auth.validateAccessTokenAsync(
      complete.tokens.accessToken,
      'https://api.example.com',
    );
    expect(validated).toMatchObject({ userId, clientId, sessionId: complete.tokens.sessionId });
    const session = await t.svc.database.db
      .selectFrom('sessions')
      .select(['amrJson', 'authTime'])
      .where('id', '=', complete.tokens.sessionId)
      .executeTakeFirstOrThrow();
    expect(session).toEqual({ amrJson: '["otp"]', authTime: Date.parse(authTime) });
    expect(await poll()).toMatchObject({ status: 'invalid_grant' });
  });

  it('deny, and an unknown client: status values, not throws', async () => {
    const { auth } = t.svc;
    const started = await auth.startDeviceAuthorizationAsync({ clientId, scope: 'openid', resource: null });
    expect(await auth.denyDeviceAuthorizationAsync({ userCode: started.userCode })).toEqual({
      status: 'denied',
    });
    expect(
      await auth.pollDeviceAuthorizationAsync({ clientId, deviceCode: started.deviceCode }),
    ).toMatchObject({
      status: 'access_denied',
    });
    expect(
      await auth.pollDeviceAuthorizationAsync({ clientId: 'nobody', deviceCode: started.deviceCode }),
    ).toMatchObject({ status: 'invalid_client' });
  });

  it('start raises the OAuth errors of the endpoint; malformed requests are SvcValidationError', async () => {
    const { auth } = t.svc;
    await expect(
      auth.startDeviceAuthorizationAsync({ clientId: 'nobody', scope: null, resource: null }),
    ).rejects.toMatchObject({
      code: 'invalid_client',
    });
    const refused = auth.startDeviceAuthorizationAsync({
      clientId,
      scope: null,
      resource: 'https://other.example.com',
    });
    await expect(refused).rejects.toBeInstanceOf(OAuthError);
    await expect(refused).rejects.toMatchObject({ code: 'invalid_target' });

    const invalid = [
      auth.startDeviceAuthorizationAsync({ clientId: '' } as never),
      auth.resolveDeviceAuthorizationAsync(42 as never),
      auth.approveDeviceAuthorizationAsync({ userCode: 'BCDF-GHJK', userId: 7 } as never),
      auth.approveDeviceAuthorizationAsync({ userCode: 'BCDF-GHJK', userId, amr: ['not a method'] }),
      auth.approveDeviceAuthorizationAsync({ userCode: 'BCDF-GHJK', userId, authTime: 'yesterday' }),
      auth.pollDeviceAuthorizationAsync({ clientId, deviceCode: '' }),
    ];
    for (const attempt of invalid) await expect(attempt).rejects.toBeInstanceOf(SvcValidationError);
  });

  it('housekeeping deletes device requests a day after they expire', async () => {
    await t.svc.auth.startDeviceAuthorizationAsync({ clientId, scope: 'openid', resource: null });
    t.clock.advance(900_000);
    expect((await t.svc.housekeeping()).deletedExpired.deviceAuthorizations).toBe(0);
    t.clock.advance(DAY_MS + 1);
    expect((await t.svc.housekeeping()).deletedExpired.deviceAuthorizations).toBe(1);
    expect(await t.svc.database.db.selectFrom('deviceAuthorizations').selectAll().execute()).toEqual([]);
  });

  it('counts the user codes a host resolves, approves or denies for an address, as the /device page does', async () => {
    const { auth } = t.svc;
    const from = { ipAddress: '198.51.100.7' };
    const guess = (i: number) => `BCDF-GH${'JKLMNPQRST'[i] ?? 'B'}${'JKLMNPQRST'[i] ?? 'B'}`;
    // rateLimits.deviceVerify: 10 per 15 minutes per address, whichever operation the code goes to.
    for (let i = 0; i < 10; i += 1) {
      if (i % 3 === 0) expect(await auth.resolveDeviceAuthorizationAsync(guess(i), from)).toBeNull();
      else if (i % 3 === 1) {
        expect(
          await auth.approveDeviceAuthorizationAsync(
            { userCode: guess(i), userId, organizationId: null },
            from,
          ),
        ).toEqual({ status: 'not_found' });
      } else
        expect(await auth.denyDeviceAuthorizationAsync({ userCode: guess(i) }, from)).toEqual({
          status: 'not_found',
        });
    }
    const refused = await auth
      .resolveDeviceAuthorizationAsync(guess(0), from)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SvcTooManyAttemptsError);
    expect(refused).toMatchObject({
      status: 429,
      code: 'rate_limited',
      message: expect.stringMatching(/try again in \d+ minutes?\.$/) as unknown,
    });
    // Another address, and a host that names none, are not held back.
    expect(await auth.resolveDeviceAuthorizationAsync(guess(0), { ipAddress: '198.51.100.8' })).toBeNull();
    expect(await auth.resolveDeviceAuthorizationAsync(guess(0))).toBeNull();
    t.clock.advance(15 * 60_000);
    expect(await auth.resolveDeviceAuthorizationAsync(guess(0), from)).toBeNull();
  });
});

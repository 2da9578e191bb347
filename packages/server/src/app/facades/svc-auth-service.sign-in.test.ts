import { svcLoginResultSchema, svcTokenResponseSchema } from '@svc/contract';
import { decodeJwt } from 'jose';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, onTestFinished } from 'vitest';
import { SvcConflictError, SvcPublicAuthError, SvcValidationError } from '../../kernel/errors.js';
import { createAuthHarness, TEST_PASSWORD, type AuthHarness } from '../../test-support/auth-harness.js';
import { describeAboveStorage } from '../../test-support/databases.js';
import { mfaSettings } from '../../test-support/mfa.js';

describeAboveStorage('SvcAuthService sign-in', (kind) => {
  let h: AuthHarness;
  let web: { clientId: string };

  // One app for the file: each test has a client and users of its own, and starts from the default MFA
  // settings; the test that counts every user and refusal has an app of its own.
  beforeAll(async () => {
    h = await createAuthHarness(kind);
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    web = await h.given.client({ allowedScopes: ['openid', 'profile', 'api:read'] });
  });
  afterEach(async () => {
    await h.admin.updateMfaSettingsAsync(mfaSettings());
  });

  const errorOf = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error,
    );
  /** The refusals of the direct helpers in `on`'s app: all of them, or those of the clients named. */
  const rejectionEvents = async (on: AuthHarness, ...clientIds: string[]) => {
    let query = on.db.selectFrom('auditEvents').selectAll().where('kind', '=', 'oauth.direct_login.rejected');
    if (clientIds.length > 0) query = query.where('clientId', 'in', clientIds);
    return query.execute();
  };
  /** The sessions in `on`'s app: of a user, or of every user. */
  const sessionCount = async (on: AuthHarness, userId?: string) => {
    let query = on.db.selectFrom('sessions').select('id');
    if (userId !== undefined) query = query.where('userId', '=', userId);
    return (await query.execute()).length;
  };

  it('signs a user in with a password and returns the complete login result with tokens', async () => {
    const user = await h.given.user();
    const result = await h.auth.loginWithPasswordAsync({
      email: user.email.replace(/^[^@]+/, (local) => local.toUpperCase()),
      password: TEST_PASSWORD,
      clientId: web.clientId,
    });
    expect(svcLoginResultSchema.parse(result)).toEqual(result);
    expect(result).toMatchObject({
      requiresOrganizationSelection: false,
      pendingAuthToken: null,
      organizations: [],
      requiresMfa: false,
      mfaToken: null,
      requiresMfaEnrollment: false,
      mfaMethods: null,
      tokens: { clientId: web.clientId, organizationId: null },
    });
    const tokens = svcTokenResponseSchema.parse(result.tokens);
    expect(Object.keys(tokens)).not.toContain('idToken');
    // The client's whole allow-list (docs/reference/sign-in.md "Direct JSON helpers").
    expect(decodeJwt(tokens.accessToken)).toMatchObject({
      sub: user.id,
      scope: 'openid profile api:read',
      sid: tokens.sessionId,
    });
  });

  it('answers every credential failure with the same invalid_credentials 401', async () => {
    const ann = await h.given.user();
    for (const [email, password] of [
      [ann.email, 'wrong-password'],
      ['nobody@example.com', TEST_PASSWORD],
    ] as const) {
      const error = await errorOf(h.auth.loginWithPasswordAsync({ email, password, clientId: web.clientId }));
      expect(error).toBeInstanceOf(SvcPublicAuthError);
      expect(error).toMatchObject({
        code: 'invalid_credentials',
        status: 401,
        message: 'The email or password is incorrect.',
      });
    }
  });

  it('rejects clients that are not first-party before any credential check, with one audit event each', async () => {
    // Every user and every refusal is counted: an app of its own.
    const own = await createAuthHarness(kind);
    onTestFinished(() => own.close());
    await own.given.user({ email: 'ann@example.com' });
    const thirdParty = await own.given.client({ isFirstParty: false });
    const cases: [string | null, string][] = [
      [thirdParty.clientId, thirdParty.clientId],
      ['no-such-client', 'no-such-client'],
      [null, ''],
    ];
    for (const [clientId] of cases) {
      // A wrong password too: the client check comes first, so the answer is invalid_client.
      const error = await errorOf(
        own.auth.loginWithPasswordAsync(
          { email: 'ann@example.com', password: 'wrong', clientId },
          { route: '/svc/auth/password/login' },
        ),
      );
      expect(error).toBeInstanceOf(SvcPublicAuthError);
      expect(error).toMatchObject({ code: 'invalid_client', status: 400 });
    }
    const events = await rejectionEvents(own);
    expect(events).toHaveLength(3);
    const data = events.map((event) => JSON.parse(event.dataJson) as Record<string, unknown>);
    expect(data.map((d) => d.client_id).sort()).toEqual([null, 'no-such-client', thirdParty.clientId].sort());
    expect(new Set(data.map((d) => d.route))).toEqual(new Set(['/svc/auth/password/login']));
    expect(events.find((e) => e.clientId === thirdParty.clientId)).toBeDefined();
    expect(await sessionCount(own)).toBe(0);

    // Signup is refused before the account exists; the in-process default route is the operation name.
    const signup = await errorOf(
      own.auth.signUpAsync({
        displayName: 'Eve',
        email: 'eve@example.com',
        password: TEST_PASSWORD,
        clientId: thirdParty.clientId,
      }),
    );
    expect(signup).toMatchObject({ code: 'invalid_client' });
    expect(await own.admin.listUsersAsync()).toMatchObject({ data: [{ email: 'ann@example.com' }] });
    const routes = (await rejectionEvents(own)).map(
      (e) => (JSON.parse(e.dataJson) as { route: string }).route,
    );
    expect(routes.filter((route) => route === 'signUpAsync')).toHaveLength(1);
    expect(routes).toHaveLength(4);
  });

  it('runs organization selection through the pending token and the token-only wrapper', async () => {
    const user = await h.given.user();
    const [a, b] = [await h.given.organization('Alpha'), await h.given.organization('Beta')];
    await h.given.membership(a.id, user.id, 'owner');
    await h.given.membership(b.id, user.id);

    const first = await h.auth.loginWithPasswordAsync({
      email: user.email,
      password: TEST_PASSWORD,
      clientId: web.clientId,
    });
    expect(svcLoginResultSchema.parse(first)).toEqual(first);
    expect(first).toMatchObject({
      requiresOrganizationSelection: true,
      tokens: null,
      organizations: [
        { id: a.id, name: 'Alpha', role: 'owner' },
        { id: b.id, name: 'Beta', role: 'member' },
      ],
    });
    const selected = await h.auth.selectOrganizationForLoginAsync({
      pendingAuthToken: first.pendingAuthToken ?? '',
      organizationId: b.id,
    });
    expect(selected).toMatchObject({
      requiresOrganizationSelection: false,
      tokens: { organizationId: b.id },
    });
    expect(decodeJwt(selected.tokens?.accessToken ?? '').org_id).toBe(b.id);
    expect(
      await errorOf(
        h.auth.selectOrganizationForLoginAsync({
          pendingAuthToken: first.pendingAuthToken ?? '',
          organizationId: b.id,
        }),
      ),
    ).toMatchObject({ code: 'invalid_token' });

    const second = await h.auth.loginWithPasswordAsync({
      email: user.email,
      password: TEST_PASSWORD,
      clientId: web.clientId,
    });
    const tokens = await h.auth.selectOrganizationAsync({
      pendingAuthToken: second.pendingAuthToken ?? '',
      organizationId: a.id,
    });
    expect(svcTokenResponseSchema.parse(tokens)).toMatchObject({
      organizationId: a.id,
      clientId: web.clientId,
    });

    // A requested organization skips the selection.
    const direct = await h.auth.loginWithPasswordAsync({
      email: user.email,
      password: TEST_PASSWORD,
      clientId: web.clientId,
      organizationId: a.id,
    });
    expect(direct.tokens?.organizationId).toBe(a.id);
  });

  it('does not let a direct helper continue a pending token of another flow', async () => {
    const user = await h.given.user();
    const [a, b] = [await h.given.organization(), await h.given.organization()];
    await h.given.membership(a.id, user.id);
    await h.given.membership(b.id, user.id);
    const hosted = await h.engine.signIn.signIn({
      userId: user.id,
      clientId: web.clientId,
      requestedOrganizationId: null,
      amr: ['pwd'],
      authTime: h.clock.now(),
      flow: 'authorize',
    });
    if (hosted.kind !== 'organization_selection') throw new Error('expected a selection');
    expect(
      await errorOf(
        h.auth.selectOrganizationForLoginAsync({
          pendingAuthToken: hosted.pendingAuthToken,
          organizationId: a.id,
        }),
      ),
    ).toMatchObject({ code: 'invalid_token', status: 400 });
    expect(await sessionCount(h, user.id)).toBe(0);
  });

  it('signs up with and without an organization, and refuses an organizationId and a taken email', async () => {
    const withOrg = await h.auth.signUpAsync({
      displayName: 'Ann',
      email: 'ann@example.com',
      password: TEST_PASSWORD,
      organizationName: 'Ann & Co',
      clientId: web.clientId,
    });
    const organizationId = withOrg.tokens?.organizationId ?? '';
    expect(organizationId).toMatch(/^org_/);
    const userId = decodeJwt(withOrg.tokens?.accessToken ?? '').sub ?? '';
    expect(await h.admin.getUserOrganizationsAsync(userId)).toEqual([
      { id: organizationId, slug: 'ann-and-co', name: 'Ann & Co', role: 'owner' },
    ]);

    const alone = await h.auth.signUpAsync({
      displayName: 'Bob',
      email: 'bob@example.com',
      password: TEST_PASSWORD,
      clientId: web.clientId,
    });
    expect(alone.tokens?.organizationId).toBeNull();
    expect(
      (
        await h.auth.loginWithPasswordAsync({
          email: 'bob@example.com',
          password: TEST_PASSWORD,
          clientId: web.clientId,
        })
      ).tokens,
    ).not.toBeNull();

    const withId = await errorOf(
      h.auth.signUpAsync({
        displayName: 'Eve',
        email: 'eve@example.com',
        password: TEST_PASSWORD,
        clientId: web.clientId,
        organizationId: organizationId as unknown as null,
      }),
    );
    expect(withId).toBeInstanceOf(SvcValidationError);
    expect((withId as Error).message).toContain('organizationId');
    expect(
      await errorOf(
        h.auth.signUpAsync({
          displayName: 'Ann 2',
          email: ' ANN@example.com',
          password: TEST_PASSWORD,
          clientId: web.clientId,
        }),
      ),
    ).toBeInstanceOf(SvcConflictError);
  });

  it('completes a sign-in the first-party client authenticated itself, through organization selection and MFA', async () => {
    const user = await h.given.user();
    const [a, b] = [await h.given.organization('Alpha'), await h.given.organization('Beta')];
    await h.given.membership(a.id, user.id);
    await h.given.membership(b.id, user.id);
    const login = { userId: user.id, clientId: web.clientId, authenticationMethod: 'hwk' as const };
    const selection = await h.auth.completeClientAuthenticationAsync(login, { ipAddress: '203.0.113.9' });
    expect(selection).toMatchObject({ requiresOrganizationSelection: true, tokens: null });
    const done = await h.auth.completeClientAuthenticationAsync({ ...login, organizationId: b.id });
    expect(done.tokens?.organizationId).toBe(b.id);
    expect(decodeJwt(done.tokens?.accessToken ?? '')).toMatchObject({ sub: user.id });
    const session = await h.db
      .selectFrom('sessions')
      .select('amrJson')
      .where('id', '=', done.tokens?.sessionId ?? '')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(session.amrJson)).toEqual(['hwk']);
    const events = await h.db
      .selectFrom('auditEvents')
      .selectAll()
      .where('kind', '=', 'oauth.direct_login.succeeded')
      .where('clientId', '=', web.clientId)
      .execute();
    expect(events.map((e) => JSON.parse(e.dataJson) as unknown)).toContainEqual({
      route: 'completeClientAuthenticationAsync',
      method: 'client',
    });
    await h.admin.updateMfaSettingsAsync(mfaSettings({ requireForAllUsers: true }));
    expect(await h.auth.completeClientAuthenticationAsync({ ...login, organizationId: a.id })).toMatchObject({
      requiresMfa: true,
      requiresMfaEnrollment: true,
      tokens: null,
    });
  });

  it('refuses a client authentication for another client, a missing secret, an unknown or inactive user and an unknown method', async () => {
    const user = await h.given.user();
    const login = { userId: user.id, clientId: web.clientId, authenticationMethod: 'pwd' as const };
    const thirdParty = await h.given.client({ isFirstParty: false });
    const confidential = await h.given.client({ tokenEndpointAuthMethod: 'client_secret_post' });
    const refusals: [Promise<unknown>, Record<string, unknown>][] = [
      [
        h.auth.completeClientAuthenticationAsync({ ...login, clientId: thirdParty.clientId }),
        { code: 'invalid_client', status: 400 },
      ],
      [
        h.auth.completeClientAuthenticationAsync({ ...login, clientId: confidential.clientId }),
        { code: 'invalid_client', status: 401 },
      ],
      [
        h.auth.completeClientAuthenticationAsync({ ...login, userId: 'usr_unknown' }),
        { code: 'not_found', status: 404 },
      ],
      [
        h.auth.completeClientAuthenticationAsync({ ...login, authenticationMethod: 'mfa' as 'pwd' }),
        { code: 'invalid_request', status: 400 },
      ],
    ];
    for (const [attempt, expected] of refusals) expect(await errorOf(attempt)).toMatchObject(expected);
    const routes = (await rejectionEvents(h, web.clientId, thirdParty.clientId, confidential.clientId)).map(
      (e) => (JSON.parse(e.dataJson) as { route: string }).route,
    );
    expect(routes).toEqual(['completeClientAuthenticationAsync', 'completeClientAuthenticationAsync']);
    expect(
      await h.auth.completeClientAuthenticationAsync({
        ...login,
        clientId: confidential.clientId,
        clientSecret: confidential.clientSecret ?? '',
      }),
    ).toMatchObject({ tokens: { clientId: confidential.clientId } });
    await h.admin.deactivateUserAsync(user.id);
    expect(await errorOf(h.auth.completeClientAuthenticationAsync(login))).toMatchObject({
      code: 'account_inactive',
      status: 403,
    });
    expect(await sessionCount(h, user.id)).toBe(1);
  });
});

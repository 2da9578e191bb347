import {
  svcLoginResultSchema,
  svcTotpEnrollmentStartResultSchema,
  type SvcCreatedClient,
  type TokenEndpointAuthMethod,
} from '@svc/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authenticatorCode, TOTP_STEP_MS } from '../test-support/authenticator-app.js';
import { describeAboveStorage } from '../test-support/databases.js';
import {
  createDirectHarness,
  DIRECT_PASSWORD,
  unique,
  type DirectHarness,
} from '../test-support/direct-test-app.js';
import { mfaSettings, selfEnroll } from '../test-support/mfa.js';
import { basicAuth } from '../test-support/oauth-http.js';
import { codeIn, linkIn, readOutbox } from '../test-support/outbox.js';

/**
 * docs/reference/sign-in.md "Direct JSON helpers": a confidential first-party client
 * authenticates on every direct sign-in route (client_secret_basic or `clientSecret` in the body,
 * whichever method it registered); missing, wrong or doubled credentials are 401 `invalid_client` before
 * any credential check, email or token minting, with one `oauth.direct_login.rejected` event each. The
 * continuation routes (organization selection, email code, MFA) authenticate again: they release the
 * client's tokens, as redeeming a code at /token does. Public clients send no secret.
 */

/** The role that requires MFA enrollment in these tests (the global settings name it). */
const ENROLLING_ROLE = 'enrolls';

/** A client of the test and its secret (absent for a public client). */
type TestClient = SvcCreatedClient;

/** How a call presents the client's credentials. */
interface Credentials {
  readonly header?: string;
  readonly clientSecret?: string;
}

interface GatedRoute {
  readonly path: string;
  /**
   * A valid body for `client` (the steps before it authenticated), with a fresh user each time, so that
   * no send limit or replay rule is in the way.
   */
  prepare(client: TestClient): Promise<Record<string, unknown>>;
}

describeAboveStorage('direct sign-in routes: confidential clients authenticate', (kind) => {
  let h: DirectHarness;
  let basicClient: TestClient;
  let postClient: TestClient;
  let publicClient: TestClient;

  beforeAll(async () => {
    h = await createDirectHarness(kind);
    basicClient = await h.given.client({ tokenEndpointAuthMethod: 'client_secret_basic' });
    postClient = await h.given.client({ tokenEndpointAuthMethod: 'client_secret_post' });
    publicClient = await h.given.client();
    await h.t.svc.admin.updateMfaSettingsAsync(mfaSettings({ requiredRoles: [ENROLLING_ROLE] }));
  });
  afterAll(() => h.close());

  const secretOf = (client: TestClient) => client.clientSecret ?? '';
  /** The credentials every earlier step of a flow sends: the secret in the body, if the client has one. */
  const own = (client: TestClient): Credentials =>
    client.clientSecret === undefined ? {} : { clientSecret: client.clientSecret };

  function send(path: string, body: object, credentials: Credentials): Promise<LightMyRequestResponse> {
    const withSecret =
      credentials.clientSecret === undefined ? body : { ...body, clientSecret: credentials.clientSecret };
    return h.post(
      path,
      withSecret,
      credentials.header === undefined ? {} : { authorization: credentials.header },
    );
  }

  async function ok(response: Promise<LightMyRequestResponse>): Promise<Record<string, unknown>> {
    const answered = await response;
    expect(answered.statusCode, answered.body).toBe(200);
    return answered.json<Record<string, unknown>>();
  }

  const newUser = () => h.given.user(`${unique('user')}@example.com`);

  async function loginResult(client: TestClient, email: string) {
    const body = { email, password: DIRECT_PASSWORD, clientId: client.clientId };
    return svcLoginResultSchema.parse(await ok(send('/password/login', body, own(client))));
  }

  async function lastMail(to: string) {
    const [newest] = await readOutbox(h.t.svc.email, { to });
    if (newest === undefined) throw new Error(`no mail to ${to}`);
    return newest.textBody;
  }

  /** An MFA token of the `mfa` state: a user with a confirmed authenticator, and its code now. */
  async function mfaChallenge(client: TestClient) {
    const user = await newUser();
    const enrolled = await selfEnroll(h.t.svc.auth, h.t.clock, user.id);
    // The enrollment used this step's code, and a code counts once.
    h.t.clock.advance(TOTP_STEP_MS);
    const login = await loginResult(client, user.email);
    return { mfaToken: login.mfaToken, code: enrolled.code() };
  }

  /** An MFA token of the `mfa_enrollment` state: a user whose role requires a second factor. */
  async function enrollmentChallenge(client: TestClient) {
    const user = await newUser();
    const organization = await h.given.organization();
    await h.given.membership(organization.id, user.id, ENROLLING_ROLE);
    return (await loginResult(client, user.email)).mfaToken;
  }

  const ROUTES: readonly GatedRoute[] = [
    {
      path: '/password/login',
      prepare: async (client) => ({
        email: (await newUser()).email,
        password: DIRECT_PASSWORD,
        clientId: client.clientId,
      }),
    },
    {
      path: '/signup',
      prepare: async (client) => ({
        displayName: 'New User',
        email: `${unique('signup')}@example.com`,
        password: DIRECT_PASSWORD,
        clientId: client.clientId,
      }),
    },
    {
      path: '/select-organization',
      prepare: async (client) => {
        const user = await newUser();
        const [a, b] = [await h.given.organization(), await h.given.organization()];
        await h.given.membership(a.id, user.id);
        await h.given.membership(b.id, user.id);
        const login = await loginResult(client, user.email);
        return { pendingAuthToken: login.pendingAuthToken, organizationId: a.id };
      },
    },
    {
      path: '/email-otp/start',
      prepare: async (client) => ({ email: (await newUser()).email, clientId: client.clientId }),
    },
    {
      path: '/email-otp/verify',
      prepare: async (client) => {
        const { email } = await newUser();
        const body = { email, clientId: client.clientId };
        const started = await ok(send('/email-otp/start', body, own(client)));
        return { challengeToken: started.challengeToken, code: codeIn(await lastMail(email)) };
      },
    },
    {
      path: '/magic-link/start',
      prepare: async (client) => ({ email: (await newUser()).email, clientId: client.clientId }),
    },
    {
      path: '/magic-link/complete',
      prepare: async (client) => {
        const { email } = await newUser();
        await ok(send('/magic-link/start', { email, clientId: client.clientId }, own(client)));
        const token = new URL(linkIn(await lastMail(email))).searchParams.get('token');
        return { token, clientId: client.clientId };
      },
    },
    {
      path: '/mfa/challenge/verify',
      prepare: (client) => mfaChallenge(client),
    },
    {
      path: '/mfa/challenge/totp/enroll/start',
      prepare: async (client) => ({ mfaToken: await enrollmentChallenge(client) }),
    },
    {
      path: '/mfa/challenge/totp/enroll/verify',
      prepare: async (client) => {
        const mfaToken = await enrollmentChallenge(client);
        const started = svcTotpEnrollmentStartResultSchema.parse(
          await ok(send('/mfa/challenge/totp/enroll/start', { mfaToken }, own(client))),
        );
        return {
          mfaToken,
          enrollmentToken: started.enrollmentToken,
          code: authenticatorCode(started.secret, h.t.clock.now()),
        };
      },
    },
  ];

  /** Every row that a sign-in step could write, except the rejection events themselves. */
  async function footprint() {
    const db = h.t.svc.database.db;
    const count = async (table: 'users' | 'sessions' | 'emailDeliveries' | 'mfaAuthenticators') =>
      (await db.selectFrom(table).select('id').execute()).length;
    const events = await db
      .selectFrom('auditEvents')
      .select('kind')
      .where('kind', '!=', 'oauth.direct_login.rejected')
      .execute();
    return {
      users: await count('users'),
      sessions: await count('sessions'),
      deliveries: await count('emailDeliveries'),
      authenticators: await count('mfaAuthenticators'),
      events: events.length,
    };
  }

  /** A 200 answer of `client`; the login results carry its tokens. */
  function expectAccepted(response: LightMyRequestResponse, client: TestClient): void {
    expect(response.statusCode, response.body).toBe(200);
    const tokens = response.json<{ tokens?: { clientId?: string } | null }>().tokens;
    if (tokens !== undefined && tokens !== null) expect(tokens.clientId).toBe(client.clientId);
  }

  function expectRefused(response: LightMyRequestResponse, message: RegExp): void {
    expect(response.statusCode, response.body).toBe(401);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({ error: 'invalid_client', message: expect.stringMatching(message) });
  }

  it.each(ROUTES.map((route) => [route.path, route] as const))(
    'POST %s: a confidential client without its secret, or with a wrong one, is 401 and nothing happens',
    async (path, route) => {
      const client = basicClient;
      // Events of one instant are listed by id: this test's rejections come after every earlier one.
      h.t.clock.advance(1_000);
      const body = await route.prepare(client);
      const before = await footprint();
      const rejectedBefore = await h.events('oauth.direct_login.rejected', client.clientId);
      const refusals: [Credentials, RegExp, string][] = [
        [{}, /confidential/, 'secret_not_sent'],
        [{ clientSecret: 'not-the-secret' }, /^Client authentication failed\.$/, 'secret_mismatch'],
        [{ header: basicAuth(client.clientId, 'not-the-secret') }, /failed/, 'secret_mismatch'],
        [{ header: basicAuth(postClient.clientId, secretOf(postClient)) }, /failed/, 'client_id_mismatch'],
        [
          { header: basicAuth(client.clientId, secretOf(client)), clientSecret: secretOf(client) },
          /once/,
          'multiple_methods',
        ],
        [{ header: 'Bearer not-basic' }, /failed/, 'malformed'],
      ];
      for (const [credentials, message] of refusals) {
        expectRefused(await send(path, body, credentials), message);
      }
      expect(await footprint()).toEqual(before);
      const rejected = await h.events('oauth.direct_login.rejected', client.clientId);
      // Within this test's instant they are listed by id, not in the order written: compare by reason.
      const byReason = (a: Record<string, unknown>, b: Record<string, unknown>) =>
        String(a.reason).localeCompare(String(b.reason));
      expect(
        rejected
          .slice(rejectedBefore.length)
          .map((event) => event.data)
          .sort(byReason),
      ).toEqual(
        refusals
          .map(([, , reason]) => ({ client_id: client.clientId, route: `/svc/auth${path}`, reason }))
          .sort(byReason),
      );

      // Six refusals spent nothing: not the token, the code's attempts or the challenge.
      expectAccepted(
        await send(path, body, { header: basicAuth(client.clientId, secretOf(client)) }),
        client,
      );
    },
  );

  it.each(ROUTES.map((route) => [route.path, route] as const))(
    'POST %s: either secret method authenticates a confidential client, whichever it registered',
    async (path, route) => {
      const cases: [TestClient, TokenEndpointAuthMethod, Credentials][] = [
        [basicClient, 'client_secret_basic', { clientSecret: secretOf(basicClient) }],
        [postClient, 'client_secret_post', { header: basicAuth(postClient.clientId, secretOf(postClient)) }],
        [postClient, 'client_secret_post', { clientSecret: secretOf(postClient) }],
      ];
      for (const [client, method, credentials] of cases) {
        expect(client.tokenEndpointAuthMethod).toBe(method);
        expectAccepted(await send(path, await route.prepare(client), credentials), client);
      }
    },
  );

  it.each(ROUTES.map((route) => [route.path, route] as const))(
    'POST %s: a public client sends no secret; one that does is refused and spends nothing',
    async (path, route) => {
      const client = publicClient;
      expectAccepted(await send(path, await route.prepare(client), {}), client);

      const body = await route.prepare(client);
      const before = await footprint();
      expectRefused(await send(path, body, { clientSecret: 'a-leaked-value' }), /public/);
      expectRefused(await send(path, body, { header: basicAuth(client.clientId, 'x') }), /public/);
      expect(await footprint()).toEqual(before);
      expectAccepted(await send(path, body, {}), client);
    },
  );

  it('names the client by its HTTP Basic credentials when the body has no clientId', async () => {
    const user = await newUser();
    const body = { email: user.email, password: DIRECT_PASSWORD };
    const header = basicAuth(basicClient.clientId, secretOf(basicClient));
    expectAccepted(await send('/password/login', body, { header }), basicClient);
  });

  it('keeps the first-party gate first: a confidential third-party client is 400 whatever it sends', async () => {
    const thirdParty = await h.given.client({
      isFirstParty: false,
      tokenEndpointAuthMethod: 'client_secret_basic',
    });
    const body = { email: (await newUser()).email, password: DIRECT_PASSWORD, clientId: thirdParty.clientId };
    const header = basicAuth(thirdParty.clientId, secretOf(thirdParty));
    for (const credentials of [{}, { header }]) {
      const response = await send('/password/login', body, credentials);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({
        error: 'invalid_client',
        message: expect.stringMatching(/first-party/),
      });
    }
    const events = await h.events('oauth.direct_login.rejected', thirdParty.clientId);
    expect(events.map((event) => event.data)).toEqual([
      { client_id: thirdParty.clientId, route: '/svc/auth/password/login' },
      { client_id: thirdParty.clientId, route: '/svc/auth/password/login' },
    ]);
  });

  it('holds in-process too: loginWithPasswordAsync needs the clientSecret of a confidential client', async () => {
    const user = await newUser();
    const request = { email: user.email, password: DIRECT_PASSWORD, clientId: basicClient.clientId };
    // A later instant than every earlier event, so that this rejection is listed last.
    h.t.clock.advance(1_000);
    await expect(h.t.svc.auth.loginWithPasswordAsync(request)).rejects.toMatchObject({
      code: 'invalid_client',
      status: 401,
    });
    const result = await h.t.svc.auth.loginWithPasswordAsync({
      ...request,
      clientSecret: secretOf(basicClient),
    });
    expect(result.tokens?.clientId).toBe(basicClient.clientId);
    const [rejected] = (await h.events('oauth.direct_login.rejected', basicClient.clientId)).slice(-1);
    expect(rejected?.data).toEqual({
      client_id: basicClient.clientId,
      route: 'loginWithPasswordAsync',
      reason: 'secret_not_sent',
    });
  });
});

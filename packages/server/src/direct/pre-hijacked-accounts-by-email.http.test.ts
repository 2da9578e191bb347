import { svcLoginResultSchema, type SvcCreatedClient } from '@svc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeAboveStorage } from '../test-support/databases.js';
import { createDirectHarness, type DirectHarness } from '../test-support/direct-test-app.js';
import { codeIn, linkIn, readOutbox } from '../test-support/outbox.js';
import { endedSession, probeSession } from '../test-support/session-probe.js';
import {
  heldTokens,
  silentCode,
  squatAccount,
  SQUATTER_PASSWORD,
  type SquattedAccount,
} from '../test-support/squatter.js';

const LIVE = { userinfo: 200, validated: true, refresh: 'ok' };

/**
 * The address's owner proving it by email (a code, a link, a password reset) into an account a squatter
 * signed up with it: the squatter's password, factor and sessions end there and then
 * (docs/decisions/accounts-linking-unverified-accounts.md).
 */
describeAboveStorage('no pre-hijacked account survives a proof of its address by email', (kind) => {
  let h: DirectHarness;
  let client: SvcCreatedClient;
  beforeAll(async () => {
    h = await createDirectHarness(kind);
    client = await h.given.client();
  });
  afterAll(() => h.close());

  const mailTo = async (email: string, templateKey: string) => {
    const [message] = await readOutbox(h.t.svc.email, { to: email, templateKey });
    return message?.textBody ?? null;
  };
  const userRow = (email: string) =>
    h.t.svc.database.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();

  /** The squatter is out: no password, no factor, no session; the address is verified. */
  async function expectClaimed(email: string, squatter: SquattedAccount, method: string): Promise<void> {
    const login = await h.post('/password/login', {
      email,
      password: SQUATTER_PASSWORD,
      clientId: client.clientId,
    });
    expect(login.statusCode).toBe(401);
    expect(await probeSession(h.t.svc, squatter.tokens, client)).toEqual(endedSession());
    expect(await silentCode(squatter.browser, client.clientId)).toBeNull();
    expect(await h.t.svc.auth.listMfaAuthenticatorsAsync(squatter.id)).toEqual([]);
    expect(await userRow(email)).toMatchObject({ emailVerified: 1 });
    const claims = (await h.events('user.unverified_account_claimed')).filter(
      (e) => e.userId === squatter.id,
    );
    expect(claims).toMatchObject([{ data: { method, authenticators: 1, sessionsRevoked: 1 } }]);
  }

  it('an emailed code signs the owner in without the squatter’s factor, and the squatter is out', async () => {
    const email = 'otp.owner@example.com';
    const squatter = await squatAccount(h, client.clientId, email);
    const started = await h.post('/email-otp/start', { email, clientId: client.clientId });
    expect(started.statusCode, started.body).toBe(200);
    const verified = await h.post('/email-otp/verify', {
      challengeToken: started.json<{ challengeToken: string }>().challengeToken,
      code: codeIn(await mailTo(email, 'auth.email-otp')),
    });
    expect(verified.statusCode, verified.body).toBe(200);
    const owner = svcLoginResultSchema.parse(verified.json());
    expect(owner).toMatchObject({ requiresMfa: false });
    await expectClaimed(email, squatter, 'email_otp');
    expect(await userRow(email)).toMatchObject({ passwordHash: null });
    expect(await probeSession(h.t.svc, heldTokens(owner), client)).toMatchObject(LIVE);
  });

  it('a sign-in link does the same', async () => {
    const email = 'link.owner@example.com';
    const squatter = await squatAccount(h, client.clientId, email);
    expect((await h.post('/magic-link/start', { email, clientId: client.clientId })).statusCode).toBe(200);
    const link = new URL(linkIn(await mailTo(email, 'auth.magic-link')));
    const completed = await h.post('/magic-link/complete', {
      token: link.searchParams.get('token'),
      clientId: client.clientId,
    });
    expect(completed.statusCode, completed.body).toBe(200);
    expect(svcLoginResultSchema.parse(completed.json())).toMatchObject({ requiresMfa: false });
    await expectClaimed(email, squatter, 'magic_link');
  });

  it("a password reset ends the squatter's sessions and factor; only the new password signs in", async () => {
    const email = 'reset.owner@example.com';
    const squatter = await squatAccount(h, client.clientId, email);
    expect((await h.post('/password/forgot', { email, clientId: client.clientId })).statusCode).toBe(200);
    const link = new URL(linkIn(await mailTo(email, 'auth.password-reset')));
    const newPassword = 'the owner chose this one';
    const reset = await h.post('/password/reset', { token: link.searchParams.get('token'), newPassword });
    expect(reset.statusCode, reset.body).toBeLessThan(300);
    await expectClaimed(email, squatter, 'password_reset');
    const login = await h.post('/password/login', {
      email,
      password: newPassword,
      clientId: client.clientId,
    });
    expect(svcLoginResultSchema.parse(login.json())).toMatchObject({ requiresMfa: false });
  });

  it("a sign-in the squatter's password started before the claim cannot finish after it", async () => {
    const email = 'parked.owner@example.com';
    const signup = await h.post('/signup', {
      displayName: 'Squatter',
      email,
      password: SQUATTER_PASSWORD,
      clientId: client.clientId,
    });
    expect(signup.statusCode, signup.body).toBe(200);
    const { id } = await userRow(email);
    const [alpha, beta] = [await h.given.organization(), await h.given.organization()];
    await h.given.membership(alpha.id, id);
    await h.given.membership(beta.id, id);
    const parked = svcLoginResultSchema.parse(
      (
        await h.post('/password/login', { email, password: SQUATTER_PASSWORD, clientId: client.clientId })
      ).json(),
    );
    expect(parked).toMatchObject({
      requiresOrganizationSelection: true,
      pendingAuthToken: expect.any(String),
    });

    const started = await h.post('/email-otp/start', { email, clientId: client.clientId });
    await h.post('/email-otp/verify', {
      challengeToken: started.json<{ challengeToken: string }>().challengeToken,
      code: codeIn(await mailTo(email, 'auth.email-otp')),
    });
    const selected = await h.post('/select-organization', {
      pendingAuthToken: parked.pendingAuthToken,
      organizationId: alpha.id,
    });
    expect(selected.statusCode, selected.body).toBe(400);
    const [claimed] = (await h.events('user.unverified_account_claimed')).filter((e) => e.userId === id);
    expect(claimed?.data).toMatchObject({ signInsInFlight: 1, passwordRemoved: true });
    // Memberships stay: an organization's membership is no way in.
    expect(await h.t.svc.admin.getUserOrganizationsAsync(id)).toHaveLength(2);
  });

  it('a code into an account whose address is verified changes nothing else', async () => {
    const email = 'verified.owner@example.com';
    await h.given.user(email);
    await h.t.svc.auth.createEmailVerificationTokenAsync({ email });
    const verification = new URL(linkIn(await mailTo(email, 'auth.email-verification')));
    await h.t.svc.auth.verifyEmailAsync({ token: verification.searchParams.get('token') ?? '' });
    const passwordSession = heldTokens(await h.login(email, client.clientId));
    const started = await h.post('/email-otp/start', { email, clientId: client.clientId });
    const verified = await h.post('/email-otp/verify', {
      challengeToken: started.json<{ challengeToken: string }>().challengeToken,
      code: codeIn(await mailTo(email, 'auth.email-otp')),
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(await probeSession(h.t.svc, passwordSession, client)).toMatchObject(LIVE);
    expect((await h.login(email, client.clientId)).tokens).not.toBeNull();
  });
});

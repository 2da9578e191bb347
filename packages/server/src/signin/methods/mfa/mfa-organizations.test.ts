import type { SvcCreatedClient, SvcLoginResult, SvcOrganization } from '@svc/contract';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { SvcInvalidOperationError } from '../../../kernel/errors.js';
import { createAuthHarness, TEST_PASSWORD, type AuthHarness } from '../../../test-support/auth-harness.js';
import { TOTP_STEP_MS } from '../../../test-support/authenticator-app.js';
import { describeAboveStorage } from '../../../test-support/databases.js';
import {
  enrollForChallenge,
  mfaSettings,
  organizationMfaPolicy,
  rejectionOf,
} from '../../../test-support/mfa.js';

describeAboveStorage('MFA and organizations', (kind) => {
  let h: AuthHarness;
  let client: SvcCreatedClient;
  let open: SvcOrganization;
  let strict: SvcOrganization;

  // One app for the file: each test has a client, organizations and users of its own, and starts from
  // the default MFA settings.
  beforeAll(async () => {
    h = await createAuthHarness(kind);
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    client = await h.given.client();
    open = await h.given.organization('Open');
    strict = await h.given.organization('Strict');
    await h.admin.updateOrganizationMfaPolicyAsync(
      strict.id,
      organizationMfaPolicy({ requireMfaForAllUsers: true }),
    );
  });
  afterEach(async () => {
    await h.admin.updateMfaSettingsAsync(mfaSettings());
  });

  const login = (email: string, organizationId: string | null = null) =>
    h.auth.loginWithPasswordAsync({
      email,
      password: TEST_PASSWORD,
      clientId: client.clientId,
      organizationId,
    });
  const pendingOf = (result: SvcLoginResult) => {
    if (result.pendingAuthToken === null) throw new Error('no organization selection');
    return result.pendingAuthToken;
  };
  const select = async (email: string, organizationId: string) =>
    h.auth.selectOrganizationForLoginAsync({
      pendingAuthToken: pendingOf(await login(email)),
      organizationId,
    });

  /** A user who belongs to both organizations. */
  async function memberOfBoth() {
    const user = await h.given.user();
    await h.given.membership(open.id, user.id);
    await h.given.membership(strict.id, user.id);
    return user;
  }

  it('choosing an organization whose policy requires MFA activates it; choosing another completes', async () => {
    const user = await memberOfBoth();
    const selection = await login(user.email);
    expect(selection).toMatchObject({
      requiresOrganizationSelection: true,
      requiresMfa: false,
      tokens: null,
    });

    const plain = await select(user.email, open.id);
    expect(plain).toMatchObject({ requiresMfa: false, tokens: { organizationId: open.id } });

    const guarded = await select(user.email, strict.id);
    expect(guarded).toEqual({
      requiresOrganizationSelection: false,
      pendingAuthToken: null,
      organizations: [],
      tokens: null,
      requiresMfa: true,
      mfaToken: expect.any(String),
      requiresMfaEnrollment: true,
      mfaMethods: ['totp'],
    });
    const enrolled = await enrollForChallenge(h.auth, h.clock, guarded.mfaToken ?? '');
    expect(enrolled.result.tokens).toMatchObject({ organizationId: strict.id, clientId: client.clientId });
  });

  it("SelectOrganizationAsync throws 'The selected organization requires MFA.' when the choice activates MFA", async () => {
    const user = await memberOfBoth();
    const error = await rejectionOf(
      h.auth.selectOrganizationAsync({
        pendingAuthToken: pendingOf(await login(user.email)),
        organizationId: strict.id,
      }),
    );
    expect(error).toBeInstanceOf(SvcInvalidOperationError);
    expect(error).toMatchObject({ message: 'The selected organization requires MFA.' });
    const tokens = await h.auth.selectOrganizationAsync({
      pendingAuthToken: pendingOf(await login(user.email)),
      organizationId: open.id,
    });
    expect(tokens.organizationId).toBe(open.id);
  });

  it('a requested organization skips the choice but not its policy; a user with a factor is challenged everywhere', async () => {
    const user = await memberOfBoth();
    expect(await login(user.email, strict.id)).toMatchObject({
      requiresMfa: true,
      requiresMfaEnrollment: true,
    });
    expect((await login(user.email, open.id)).tokens).not.toBeNull();

    const enrolled = await enrollForChallenge(
      h.auth,
      h.clock,
      (await login(user.email, strict.id)).mfaToken ?? '',
    );
    h.clock.advance(TOTP_STEP_MS);
    // Organization selection keeps the second factor: the open organization asks for it now too.
    const chosen = await select(user.email, open.id);
    expect(chosen).toMatchObject({
      requiresMfa: true,
      requiresMfaEnrollment: false,
      mfaMethods: ['totp', 'recovery_code'],
    });
    const verified = await h.auth.verifyMfaChallengeAsync({
      mfaToken: chosen.mfaToken ?? '',
      code: enrolled.code(),
    });
    expect(verified.tokens.organizationId).toBe(open.id);
  });

  it('owner and admin rules follow the role in the chosen organization; a disabled policy requires nothing', async () => {
    await h.admin.updateOrganizationMfaPolicyAsync(
      open.id,
      organizationMfaPolicy({ isEnabled: false, requireMfaForAllUsers: true }),
    );
    const admin = await h.given.user();
    await h.given.membership(open.id, admin.id, 'Admin');
    expect((await login(admin.email)).tokens).not.toBeNull();

    await h.admin.updateMfaSettingsAsync(mfaSettings({ requireForOwnersAndAdmins: true }));
    expect(await login(admin.email)).toMatchObject({ requiresMfaEnrollment: true });
    const member = await h.given.user();
    await h.given.membership(open.id, member.id, 'member');
    expect((await login(member.email)).tokens).not.toBeNull();
  });

  it('signup stops at mfa_enrollment too: the new owner of an organization under an owners-and-admins rule', async () => {
    await h.admin.updateMfaSettingsAsync(mfaSettings({ requireForOwnersAndAdmins: true }));
    const result = await h.auth.signUpAsync({
      displayName: 'Olive Owner',
      email: 'olive@example.com',
      password: TEST_PASSWORD,
      organizationName: 'Olive Co',
      clientId: client.clientId,
    });
    expect(result).toMatchObject({ requiresMfa: true, requiresMfaEnrollment: true, tokens: null });
    const enrolled = await enrollForChallenge(h.auth, h.clock, result.mfaToken ?? '');
    expect(enrolled.result.tokens?.organizationId).toEqual(expect.stringMatching(/^org_/));
  });
});

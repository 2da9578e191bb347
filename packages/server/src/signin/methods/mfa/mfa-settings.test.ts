import { svcMfaSettingsSchema, svcOrganizationMfaPolicySchema } from '@svc/contract';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { SvcInvalidOperationError, SvcNotFoundError, SvcValidationError } from '../../../kernel/errors.js';
import { createAuthHarness, TEST_PASSWORD, type AuthHarness } from '../../../test-support/auth-harness.js';
import { authenticatorCode, TOTP_STEP_MS, wrongCode } from '../../../test-support/authenticator-app.js';
import { describeAboveStorage } from '../../../test-support/databases.js';
import { mfaSettings, organizationMfaPolicy, rejectionOf, selfEnroll } from '../../../test-support/mfa.js';
import { DEFAULT_MFA_SETTINGS, DEFAULT_ORGANIZATION_MFA_POLICY } from './mfa-settings.js';

describeAboveStorage('MFA settings, organization policies and self-enrollment', (kind) => {
  let h: AuthHarness;

  // One app for the file: each test has users and organizations of its own, and starts from the default
  // MFA settings. The per-user limit on wrong codes (mfa-throttle.http.test.ts) is raised, so that the
  // enrollment's own limit is what the test of five wrong codes reaches; no other test comes near either.
  beforeAll(async () => {
    h = await createAuthHarness(kind, { failureLimits: { mfaUser: { threshold: 10 } } });
  });
  afterAll(async () => {
    await h.close();
  });
  afterEach(async () => {
    await h.admin.updateMfaSettingsAsync(mfaSettings());
  });
  /** How many events of `kind` the audit log holds. */
  const audited = async (kind: string) => (await h.auditKinds()).filter((k) => k === kind).length;

  it('global settings: defaults until saved; an update replaces the record, normalized, and is audited', async () => {
    expect(await h.admin.getMfaSettingsAsync()).toEqual(DEFAULT_MFA_SETTINGS);
    const updates = await audited('mfa.settings.updated');
    expect(DEFAULT_MFA_SETTINGS).toMatchObject({ enabled: true, requireForAllUsers: false });
    const saved = await h.admin.updateMfaSettingsAsync({
      ...DEFAULT_MFA_SETTINGS,
      requireForOwnersAndAdmins: true,
      requiredRoles: [' Billing ', 'auditor', 'billing'],
      availableFactors: ['recovery_code', 'totp'],
    });
    const expected = mfaSettings({
      requireForOwnersAndAdmins: true,
      requiredRoles: ['auditor', 'billing'],
      availableFactors: ['totp', 'recovery_code'],
    });
    expect(saved).toEqual(expected);
    expect(await h.admin.getMfaSettingsAsync()).toEqual(expected);
    expect(svcMfaSettingsSchema.parse(saved)).toEqual(saved);
    expect(await audited('mfa.settings.updated')).toBe(updates + 1);
    expect(
      (await h.admin.updateMfaSettingsAsync({ ...expected, availableFactors: ['totp', 'totp'] }))
        .availableFactors,
    ).toEqual(['totp']);
  });

  it('global settings: every field is required and checked', async () => {
    const { requiredRoles: _omitted, ...missing } = DEFAULT_MFA_SETTINGS;
    for (const bad of [
      missing,
      { ...DEFAULT_MFA_SETTINGS, enabled: 'yes' },
      { ...DEFAULT_MFA_SETTINGS, availableFactors: ['sms'] },
      { ...DEFAULT_MFA_SETTINGS, requiredRoles: [''] },
      { ...DEFAULT_MFA_SETTINGS, requiredRoles: ['x'.repeat(65)] },
      { ...DEFAULT_MFA_SETTINGS, requiredRoles: ['a\u0000b'] },
    ]) {
      const error = await rejectionOf(h.admin.updateMfaSettingsAsync(bad as never));
      expect(error, JSON.stringify(bad)).toBeInstanceOf(SvcValidationError);
    }
    expect(await h.admin.getMfaSettingsAsync()).toEqual(DEFAULT_MFA_SETTINGS);
  });

  it('organization policy: defaults (not enabled) until saved; 404 for an unknown organization', async () => {
    const org = await h.given.organization();
    expect(await h.admin.getOrganizationMfaPolicyAsync(org.id)).toEqual(DEFAULT_ORGANIZATION_MFA_POLICY);
    const updates = await audited('mfa.organization_policy.updated');
    expect(DEFAULT_ORGANIZATION_MFA_POLICY.isEnabled).toBe(false);
    const policy = organizationMfaPolicy({ requireMfaForOwnersAndAdmins: true, requiredRoles: ['Finance'] });
    const saved = await h.admin.updateOrganizationMfaPolicyAsync(org.id, policy);
    expect(saved).toEqual({ ...policy, requiredRoles: ['finance'] });
    expect(svcOrganizationMfaPolicySchema.parse(saved)).toEqual(saved);
    expect(await h.admin.getOrganizationMfaPolicyAsync(org.id)).toEqual(saved);
    expect(await audited('mfa.organization_policy.updated')).toBe(updates + 1);

    for (const unknown of ['org_missing', 'org\u0000', '']) {
      expect(await rejectionOf(h.admin.getOrganizationMfaPolicyAsync(unknown))).toBeInstanceOf(
        SvcNotFoundError,
      );
      expect(await rejectionOf(h.admin.updateOrganizationMfaPolicyAsync(unknown, policy))).toBeInstanceOf(
        SvcNotFoundError,
      );
    }
    const invalid = await rejectionOf(
      h.admin.updateOrganizationMfaPolicyAsync(org.id, { ...policy, isEnabled: undefined } as never),
    );
    expect(invalid).toBeInstanceOf(SvcValidationError);
    expect(await h.admin.getOrganizationMfaPolicyAsync(org.id)).toEqual(saved);
  });

  it('self-enrollment: a signed-in user adds an authenticator (no tokens, 10 recovery codes), and is challenged from then on', async () => {
    const client = await h.given.client();
    const user = await h.given.user();
    expect(await h.auth.getMfaStatusAsync(user.id)).toEqual({
      enabled: true,
      totpEnrolled: false,
      recoveryCodesRemaining: 0,
      userSelfEnrollmentEnabled: true,
    });
    const started = await h.auth.startTotpEnrollmentAsync(user.id, { label: 'Work phone' });
    // A wrong code leaves the enrollment open; the right one confirms it.
    const wrong = await rejectionOf(
      h.auth.verifyTotpEnrollmentAsync({
        enrollmentToken: started.enrollmentToken,
        code: wrongCode(started.secret, h.clock.now()),
      }),
    );
    expect(wrong).toMatchObject({ code: 'invalid_code', status: 400 });
    const done = await h.auth.verifyTotpEnrollmentAsync({
      enrollmentToken: started.enrollmentToken,
      code: authenticatorCode(started.secret, h.clock.now()),
      mfaToken: null,
    });
    expect(done.tokens).toBeNull();
    expect(done.recoveryCodes).toHaveLength(10);
    expect(await h.auth.listMfaAuthenticatorsAsync(user.id)).toEqual([
      expect.objectContaining({ id: done.authenticatorId, label: 'Work phone', type: 'totp' }),
    ]);

    const login = await h.auth.loginWithPasswordAsync({
      email: user.email,
      password: TEST_PASSWORD,
      clientId: client.clientId,
      organizationId: null,
    });
    expect(login).toMatchObject({ requiresMfa: true, requiresMfaEnrollment: false, tokens: null });
  });

  it('self-enrollment: five wrong codes end an enrollment; starting again replaces the secret', async () => {
    const user = await h.given.user();
    const first = await h.auth.startTotpEnrollmentAsync(user.id);
    for (let i = 0; i < 5; i += 1) {
      await rejectionOf(
        h.auth.verifyTotpEnrollmentAsync({ enrollmentToken: first.enrollmentToken, code: '000000' }),
      );
    }
    const ended = await rejectionOf(
      h.auth.verifyTotpEnrollmentAsync({
        enrollmentToken: first.enrollmentToken,
        code: authenticatorCode(first.secret, h.clock.now()),
      }),
    );
    expect(ended).toMatchObject({ code: 'invalid_token' });
    const second = await h.auth.startTotpEnrollmentAsync(user.id);
    expect(second.secret).not.toBe(first.secret);
    const done = await h.auth.verifyTotpEnrollmentAsync({
      enrollmentToken: second.enrollmentToken,
      code: authenticatorCode(second.secret, h.clock.now()),
    });
    expect(done.authenticatorId).toEqual(expect.any(String));
    expect(
      await h.db.selectFrom('mfaAuthenticators').select('id').where('userId', '=', user.id).execute(),
    ).toHaveLength(1);
  });

  it('self-enrollment: refused when switched off (globally, or with MFA or TOTP off); unknown users are 404', async () => {
    const user = await h.given.user();
    for (const off of [{ userSelfEnrollmentEnabled: false }, { enabled: false }, { totpEnabled: false }]) {
      await h.admin.updateMfaSettingsAsync(mfaSettings(off));
      const error = await rejectionOf(h.auth.startTotpEnrollmentAsync(user.id));
      expect(error, JSON.stringify(off)).toBeInstanceOf(SvcInvalidOperationError);
    }
    await h.admin.updateMfaSettingsAsync(mfaSettings());
    expect(await rejectionOf(h.auth.startTotpEnrollmentAsync('usr_missing'))).toBeInstanceOf(
      SvcNotFoundError,
    );
    expect(await rejectionOf(h.auth.startTotpEnrollmentAsync('usr\u0000'))).toBeInstanceOf(
      SvcValidationError,
    );
    expect(await rejectionOf(h.auth.getMfaStatusAsync('usr\u0000'))).toBeInstanceOf(SvcValidationError);
  });

  it('recovery codes: a second authenticator brings none; regenerating replaces them all', async () => {
    const user = await h.given.user();
    const first = await selfEnroll(h.auth, h.clock, user.id);
    h.clock.advance(TOTP_STEP_MS);
    const second = await selfEnroll(h.auth, h.clock, user.id);
    expect(second.result.recoveryCodes).toEqual([]);
    expect(await h.auth.listMfaAuthenticatorsAsync(user.id)).toHaveLength(2);

    const fresh = await h.auth.regenerateRecoveryCodesAsync(user.id);
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(first.result.recoveryCodes[0]);
    expect(await h.auth.getMfaStatusAsync(user.id)).toMatchObject({ recoveryCodesRemaining: 10 });
    const client = await h.given.client();
    const login = () =>
      h.auth.loginWithPasswordAsync({
        email: user.email,
        password: TEST_PASSWORD,
        clientId: client.clientId,
        organizationId: null,
      });
    const old = first.result.recoveryCodes[0] ?? '';
    expect(
      await rejectionOf(
        h.auth.verifyMfaChallengeAsync({ mfaToken: (await login()).mfaToken ?? '', code: old }),
      ),
    ).toMatchObject({ code: 'invalid_code' });
    const verified = await h.auth.verifyMfaChallengeAsync({
      mfaToken: (await login()).mfaToken ?? '',
      code: fresh[0] ?? '',
    });
    expect(verified.remainingRecoveryCodes).toBe(9);

    const newcomer = await h.given.user();
    expect(await rejectionOf(h.auth.regenerateRecoveryCodesAsync(newcomer.id))).toBeInstanceOf(
      SvcInvalidOperationError,
    );
  });
});

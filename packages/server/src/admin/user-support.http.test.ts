import {
  svcLoginResultSchema,
  svcPasswordResetDeliverySchema,
  svcUserMfaResetResultSchema,
  svcUserMfaSchema,
  svcUserSchema,
} from '@svc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { NOT_FOUND_BODY } from '../http/errors.js';
import { describeEachDatabase } from '../test-support/databases.js';
import {
  createDirectHarness,
  DIRECT_PASSWORD,
  unique,
  type DirectHarness,
} from '../test-support/direct-test-app.js';
import { mfaSettings, selfEnroll } from '../test-support/mfa.js';
import { operatorApi } from '../test-support/operator-api.js';

const ADMIN = '/svc/admin/auth/api';

/**
 * What an operator console changes for a user (docs/reference/organizations.md "Operator support for a
 * user"): the address's verification, the operator flag (never the last active operator's), an organization's
 * primary domain, the second factors, and a password reset email; on both databases.
 */
describeEachDatabase('operator console: user support', (kind) => {
  let h: DirectHarness;
  beforeAll(async () => {
    h = await createDirectHarness(kind);
  });
  afterAll(() => h.close());
  const api = operatorApi(ADMIN, () => h.t, { ordered: true });
  const patch = (userId: string, body: object) => api('PATCH', `/users/${userId}`, body);
  /** An account signed up by phone: no address. */
  const phoneOnlyUser = async () => {
    const id = unique('usr_phone').replaceAll('-', '_');
    const now = h.t.clock.now();
    await h.t.svc.database.db
      .insertInto('users')
      .values({
        id,
        displayName: 'Phone Only',
        email: null,
        emailKey: null,
        emailVerified: 0,
        passwordHash: null,
        isOperator: 0,
        active: 1,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    return id;
  };
  const changedOf = async (userId: string) =>
    (await h.events('admin.user.updated')).filter((e) => e.userId === userId).map((e) => e.data.changed);

  it('marks an address verified or not, and a new address with it', async () => {
    const user = await h.given.user();
    expect((await patch(user.id, { emailVerified: true })).body).toMatchObject({ emailVerified: true });
    const moved = `${unique('moved')}@example.com`;
    expect((await patch(user.id, { email: moved, emailVerified: true })).body).toMatchObject({
      email: moved,
      emailVerified: true,
    });
    expect((await patch(user.id, { email: `${unique('again')}@example.com` })).body).toMatchObject({
      emailVerified: false,
    });
    expect(await changedOf(user.id)).toEqual([['emailVerified'], ['email'], ['email', 'emailVerified']]);
    const refused = await patch(user.id, { emailVerified: 'yes' });
    expect(refused).toMatchObject({ status: 400, body: { details: [{ path: 'emailVerified' }] } });

    // An account signed up by phone has no address to verify.
    const phoneOnly = await phoneOnlyUser();
    expect(await patch(phoneOnly, { emailVerified: true })).toMatchObject({
      status: 400,
      body: { details: [{ path: 'emailVerified' }] },
    });
  });

  it('makes and unmakes operators, never leaving no active operator, even under concurrent changes', async () => {
    const [a, b, c] = [await h.given.user(), await h.given.user(), await h.given.user()];
    for (const user of [a, b]) {
      const made = await patch(user.id, { isOperator: true });
      expect(svcUserSchema.parse(made.body)).toMatchObject({ isOperator: true });
    }
    // Both demoted at once: one wins, the other is the last active operator.
    const both = await Promise.all([a, b].map((user) => patch(user.id, { isOperator: false })));
    expect(both.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const last = both[0]?.status === 409 ? a : b;
    const refusedBoth = [
      await patch(last.id, { isOperator: false }),
      await patch(last.id, { active: false }),
    ];
    for (const refused of refusedBoth) {
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({
        error: 'conflict',
        message: expect.stringContaining('last active operator'),
      });
    }
    // Nothing of a refused change is written.
    expect(await patch(last.id, { active: false, displayName: 'Renamed' })).toMatchObject({ status: 409 });
    expect((await api('GET', `/users/${last.id}`)).body).toMatchObject({
      isOperator: true,
      active: true,
      displayName: 'Ann Example',
    });

    // With another active operator, the last one may go; an inactive operator does not count.
    await patch(c.id, { isOperator: true });
    expect((await patch(last.id, { active: false })).status).toBe(200);
    expect((await patch(c.id, { isOperator: false })).status).toBe(409);
    expect(await changedOf(c.id)).toEqual([['isOperator']]);
    const [event] = (await h.events('admin.user.updated')).filter((e) => e.userId === c.id);
    expect(event).toMatchObject({ actorType: 'operator' });
  });

  it('sets and removes an organization’s primary domain', async () => {
    const organization = await h.given.organization();
    const path = `/organizations/${organization.id}`;
    expect((await api('PATCH', path, { primaryDomain: ' Acme.EXAMPLE ' })).body).toMatchObject({
      primaryDomain: 'acme.example',
    });
    expect((await api('PATCH', path, { name: 'Kept' })).body).toMatchObject({
      primaryDomain: 'acme.example',
    });
    expect(await api('PATCH', path, { primaryDomain: 'not a domain' })).toMatchObject({
      status: 400,
      body: { details: [{ path: 'primaryDomain' }] },
    });
    expect((await api('PATCH', path, { primaryDomain: null })).body).toMatchObject({ primaryDomain: null });
    const changes = (await h.events('admin.organization.updated'))
      .filter((e) => e.data.changed !== undefined)
      .map((e) => e.data.changed)
      .slice(-3);
    expect(changes).toEqual([['primaryDomain'], ['name'], ['primaryDomain']]);
  });

  it('shows a user’s second factors without secrets and resets them; the next sign-in follows the policy', async () => {
    const client = await h.given.client();
    const user = await h.given.user();
    const enrolled = await selfEnroll(h.t.svc.auth, h.t.clock, user.id);
    h.t.clock.advance(1000);
    await h.t.svc.auth.startTotpEnrollmentAsync(user.id, {});
    const factors = await api('GET', `/users/${user.id}/mfa`);
    const shown = svcUserMfaSchema.strict().parse(factors.body);
    expect(shown.totp.map((totp) => totp.confirmed)).toEqual([true, false]);
    expect(shown.totp[0]).toMatchObject({ label: user.email, confirmedAt: expect.any(String) });
    expect(shown.recoveryCodesRemaining).toBe(enrolled.result.recoveryCodes.length);
    expect(factors.text).not.toContain(enrolled.secret);
    const login = async () =>
      svcLoginResultSchema.parse(
        (
          await h.post('/password/login', {
            email: user.email,
            password: DIRECT_PASSWORD,
            clientId: client.clientId,
          })
        ).json(),
      );
    expect(await login()).toMatchObject({ requiresMfa: true, requiresMfaEnrollment: false });

    const reset = await api('POST', `/users/${user.id}/mfa/reset`);
    expect(svcUserMfaResetResultSchema.strict().parse(reset.body)).toEqual({
      removedAuthenticators: 2,
      removedRecoveryCodes: enrolled.result.recoveryCodes.length,
    });
    expect((await api('GET', `/users/${user.id}/mfa`)).body).toEqual({ totp: [], recoveryCodesRemaining: 0 });
    expect((await h.events('admin.user.mfa_reset')).filter((e) => e.userId === user.id)).toEqual([
      expect.objectContaining({
        actorType: 'operator',
        data: { authenticatorsRemoved: 2, recoveryCodesRemoved: enrolled.result.recoveryCodes.length },
      }),
    ]);
    expect(await login()).toMatchObject({ requiresMfa: false, tokens: expect.any(Object) });
    await api('PUT', '/settings/mfa', mfaSettings({ requireForAllUsers: true }));
    try {
      expect(await login()).toMatchObject({ requiresMfa: true, requiresMfaEnrollment: true });
    } finally {
      await api('PUT', '/settings/mfa', mfaSettings());
    }

    expect((await api('GET', '/users/usr_unknown/mfa')).status).toBe(404);
    expect((await api('POST', '/users/usr_unknown/mfa/reset')).status).toBe(404);
    for (const [method, path] of [
      ['GET', `/users/${user.id}/mfa`],
      ['POST', `/users/${user.id}/mfa/reset`],
      ['POST', `/users/${user.id}/password-reset`],
    ] as const) {
      const unauthorized = await api(method, path, undefined, false);
      expect(unauthorized, `${method} ${path}`).toMatchObject({ status: 404, body: NOT_FOUND_BODY });
    }
  });

  it('sends a password reset and says where it went; refuses a deactivated user or one without an address', async () => {
    const user = await h.given.user();
    const sent = await api('POST', `/users/${user.id}/password-reset`);
    expect(sent.status).toBe(202);
    // No mail server in this Svc: the email waits in the outbox, and the answer says so.
    expect(svcPasswordResetDeliverySchema.strict().parse(sent.body)).toMatchObject({ delivery: 'outbox' });
    const [event] = (await h.events('admin.user.password_reset_sent')).filter((e) => e.userId === user.id);
    expect(event).toMatchObject({
      actorType: 'operator',
      data: { deliveryId: sent.body.deliveryId, deliveryStatus: 'outbox' },
    });

    await api('PATCH', `/users/${user.id}`, { active: false });
    expect(await api('POST', `/users/${user.id}/password-reset`)).toMatchObject({
      status: 409,
      body: { error: 'conflict', message: expect.stringContaining('deactivated') },
    });
    expect(await api('POST', `/users/${await phoneOnlyUser()}/password-reset`)).toMatchObject({
      status: 409,
      body: { message: expect.stringContaining('no email address') },
    });
    expect((await api('POST', '/users/usr_unknown/password-reset')).status).toBe(404);
    expect((await api('POST', `/users/${encodeURIComponent('usr_\u0000')}/password-reset`)).status).toBe(400);
  });
});

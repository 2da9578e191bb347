import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SvcTooManyAttemptsError } from '../kernel/errors.js';
import { describeAboveStorage } from '../test-support/databases.js';
import { createDirectHarness, DIRECT_PASSWORD, type DirectHarness } from '../test-support/direct-test-app.js';

const ADMIN = '/svc/admin/auth/api';
// A dotless ı (U+0131) before the @: upper-cased, it used to be the key of admin@example.com.
const LOOKALIKE = 'admın@example.com';

/** A 400 whose message (and the field's) says to use an address that is ASCII before the @. */
function refusedAsNotAscii(response: LightMyRequestResponse): void {
  expect(response.statusCode, response.body).toBe(400);
  const body = response.json<{ message: string; details?: { path: string; message: string }[] }>();
  const words = [body.message, ...(body.details ?? []).map((detail) => detail.message)].join(' ');
  expect(words).toMatch(/part before the @ is ASCII/);
}

/**
 * Addresses that are not ASCII before the @ (docs/decisions/admin-email-identity-ascii-exact.md) on the
 * operator API and the direct JSON helpers: each is a 400 that says what to do, and none reaches the
 * account whose address it upper-cases to.
 */
describeAboveStorage('email addresses that are not ASCII before the @', (kind) => {
  let h: DirectHarness;
  let clientId: string;
  beforeEach(async () => {
    h = await createDirectHarness(kind, { failureLimits: { passwordAccount: { threshold: 3 } } });
    clientId = (await h.given.client()).clientId;
  });
  afterEach(() => h.close());

  const operator = (method: 'POST' | 'PATCH', path: string, payload: object) =>
    h.inject({ method, url: `${ADMIN}${path}`, headers: h.t.operator, payload });
  const deliveries = async () =>
    Number(
      (
        await h.t.svc.database.db
          .selectFrom('emailDeliveries')
          .select((e) => e.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('the operator API refuses them for a user and an invitation', async () => {
    refusedAsNotAscii(
      await operator('POST', '/users', {
        displayName: 'Mallory',
        email: LOOKALIKE,
        password: DIRECT_PASSWORD,
      }),
    );
    const user = await h.given.user('admin@example.com');
    refusedAsNotAscii(await operator('PATCH', `/users/${user.id}`, { email: LOOKALIKE }));
    const organization = await h.given.organization();
    refusedAsNotAscii(
      await operator('POST', `/organizations/${organization.id}/invitations`, {
        email: LOOKALIKE,
        role: 'member',
      }),
    );
  });

  it('the direct helpers refuse them, and send nothing to the account they upper-case to', async () => {
    await h.given.user('admin@example.com');
    refusedAsNotAscii(
      await h.post('/password/login', { email: LOOKALIKE, password: DIRECT_PASSWORD, clientId }),
    );
    const before = await deliveries();
    for (const path of [
      '/password/forgot',
      '/email/verification-email',
      '/email-otp/start',
      '/magic-link/start',
    ]) {
      refusedAsNotAscii(await h.post(path, { email: LOOKALIKE, clientId }));
    }
    expect(await deliveries()).toBe(before);
  });

  it('a password check fails as for an unknown account, and counts towards the limits under its own name', async () => {
    await h.given.user('admin@example.com');
    const { passwords } = h.t.svc.authEngine;
    const check = (email: string) => passwords.authenticate(email, DIRECT_PASSWORD, { operation: 'test' });
    for (let attempt = 0; attempt < 3; attempt += 1) expect(await check(LOOKALIKE)).toEqual({ ok: false });
    await expect(check(LOOKALIKE)).rejects.toBeInstanceOf(SvcTooManyAttemptsError);
    // The failures are not admin@example.com's.
    expect(await check('admin@example.com')).toMatchObject({ ok: true });
  });
});

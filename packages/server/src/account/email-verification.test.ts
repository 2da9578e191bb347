import { afterAll, beforeAll, expect, it } from 'vitest';
import { HOUR_MS, MINUTE_MS } from '../kernel/clock.js';
import {
  createAccountHarness,
  emailVerifiedOf,
  uniqueEmail,
  type AccountHarness,
} from '../test-support/account-harness.js';
import { describeEachDatabase } from '../test-support/databases.js';

describeEachDatabase('email verification', (kind) => {
  let h: AccountHarness;
  beforeAll(async () => {
    h = await createAccountHarness(kind);
  });
  afterAll(async () => {
    await h.close();
  });
  const later = () => h.t.clock.advance(2 * MINUTE_MS);
  const verified = (userId: string) => emailVerifiedOf(h.t, userId);

  it('mails a link to the verification page; the token verifies the address once', async () => {
    later();
    const user = await h.user();
    expect(await verified(user.id)).toBe(0);
    const result = await h.account.createEmailVerificationToken({ email: user.email });
    expect(result).not.toHaveProperty('token');
    const { url, token } = h.linkTo(user.email);
    const { svc } = h.t;
    expect(`${url.origin}${url.pathname}`).toBe(
      `${svc.config.publicOrigin}${svc.config.authBase}/email/verify`,
    );
    await h.account.verifyEmail({ token });
    expect(await verified(user.id)).toBe(1);
    await expect(h.account.verifyEmail({ token })).rejects.toMatchObject({
      code: 'invalid_token',
      status: 400,
    });
  });

  it('sends nothing to unknown or already verified addresses, with the same answer', async () => {
    later();
    const user = await h.user();
    await h.account.createEmailVerificationToken({ email: user.email });
    await h.account.verifyEmail({ token: h.linkTo(user.email).token });
    later();
    const unknown = uniqueEmail('ghost');
    const a = await h.account.createEmailVerificationToken({ email: unknown });
    const b = await h.account.createEmailVerificationToken({ email: user.email });
    expect({ ...a, maskedEmail: '' }).toEqual({ ...b, maskedEmail: '' });
    expect(h.sentTo(unknown)).toHaveLength(0);
    expect(h.sentTo(user.email)).toHaveLength(1);
  });

  it('expires after 24 hours; a newer link replaces the older one', async () => {
    later();
    const user = await h.user();
    await h.account.createEmailVerificationToken({ email: user.email });
    const first = h.linkTo(user.email).token;
    later();
    await h.account.createEmailVerificationToken({ email: user.email });
    const second = h.linkTo(user.email).token;
    await expect(h.account.verifyEmail({ token: first })).rejects.toMatchObject({
      code: 'invalid_token',
    });
    h.t.clock.advance(24 * HOUR_MS);
    await expect(h.account.verifyEmail({ token: second })).rejects.toMatchObject({
      code: 'invalid_token',
    });
    expect(await verified(user.id)).toBe(0);
  });

  it('binds the token to the address it was sent to', async () => {
    later();
    const user = await h.user();
    await h.account.createEmailVerificationToken({ email: user.email });
    const { token } = h.linkTo(user.email);
    // The address changes after the mail went out (no admin operation yet: a direct update).
    await h.t.svc.database.db
      .updateTable('users')
      .set({ email: 'moved@example.com', emailKey: `MOVED-${user.id}@EXAMPLE.COM` })
      .where('id', '=', user.id)
      .execute();
    await expect(h.account.verifyEmail({ token })).rejects.toMatchObject({ code: 'invalid_token' });
    expect(await verified(user.id)).toBe(0);
  });

  it('rate-limits sends per address and records audit events without the token', async () => {
    later();
    const user = await h.user();
    await h.account.createEmailVerificationToken({ email: user.email }, { ipAddress: '198.51.100.7' });
    await expect(h.account.createEmailVerificationToken({ email: user.email })).rejects.toMatchObject({
      error: 'resend_too_soon',
      status: 429,
      refused: { nextAllowedSendAt: h.t.clock.now() + 60_000 },
    });
    expect(h.sentTo(user.email)).toHaveLength(1);
    const { token } = h.linkTo(user.email);
    await h.account.verifyEmail({ token });
    const rows = await h.t.svc.database.db
      .selectFrom('auditEvents')
      .selectAll()
      .where('userId', '=', user.id)
      .execute();
    expect(rows.map((r) => r.kind)).toEqual(
      expect.arrayContaining(['email_verification.requested', 'email_verification.completed']),
    );
    expect(rows.map((r) => r.dataJson).join('')).not.toContain(token);
  });
});

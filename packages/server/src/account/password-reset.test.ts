import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../kernel/clock.js';
import { passwordHashing } from '../directory/password-hasher.js';
import { accountRepositories } from '../storage/repositories/account-tokens.js';
import { clientRepository } from '../storage/repositories/clients.js';
import { userRepository } from '../storage/repositories/users.js';
import { TEST_PASSWORD_HASHING } from '../test-support/test-password-hashing.js';
import { createAccountHarness, uniqueEmail, type AccountHarness } from '../test-support/account-harness.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { PasswordReset } from './password-reset.js';

const NEW_PASSWORD = 'a brand new passphrase';

describeEachDatabase('password reset', (kind) => {
  let h: AccountHarness;
  beforeAll(async () => {
    h = await createAccountHarness(kind);
  });
  afterAll(async () => {
    await h.close();
  });
  // Each test moves the clock past the per-address send interval so tests do not rate-limit each other.
  const later = () => h.t.clock.advance(2 * MINUTE_MS);

  it('mails a link under the public origin; the token sets a new password once and ends every session', async () => {
    later();
    const user = await h.user();
    const client = await h.firstPartyClient();
    const { svc } = h.t;
    const session = await svc.auth.createSessionTokensForUserAsync(
      user.id,
      client.clientId,
      null,
      'pwd',
      null,
      null,
    );
    const browser = await svc.authEngine.browserSessions.create(user.id, ['pwd'], h.t.clock.now());

    const result = await h.account.requestPasswordResetEmail({ email: user.email });
    expect(result.maskedEmail).toBe(`${user.email.slice(0, 1)}***@example.com`);
    expect(Object.keys(result).sort()).toEqual(['expiresAt', 'maskedEmail', 'message', 'nextAllowedSendAt']);
    const { url, token } = h.linkTo(user.email);
    expect(`${url.origin}${url.pathname}`).toBe(
      `${svc.config.publicOrigin}${svc.config.authBase}/password/reset`,
    );
    expect(token.length).toBeGreaterThan(20);

    await h.account.resetPassword({ token, newPassword: NEW_PASSWORD });
    expect(
      await svc.authEngine.passwords.authenticate(user.email, NEW_PASSWORD, { operation: 'test' }),
    ).toMatchObject({ ok: true });
    expect(
      await svc.authEngine.passwords.authenticate(user.email, 'correct horse battery staple', {
        operation: 'test',
      }),
    ).toEqual({
      ok: false,
    });
    expect(await svc.authEngine.tokens.revocation.activeSession(session.refreshToken ?? '')).toBeUndefined();
    expect(await svc.authEngine.browserSessions.resolve(browser.token)).toBeNull();

    await expect(h.account.resetPassword({ token, newPassword: 'another passphrase' })).rejects.toMatchObject(
      {
        code: 'invalid_token',
        status: 400,
      },
    );
  });

  it('an operator sends the reset email (202 sent), to a user without a password too; the link sets one', async () => {
    const user = await h.user(undefined, null);
    const sent = await h.app.inject({
      method: 'POST',
      url: `/svc/admin/auth/api/users/${user.id}/password-reset`,
      headers: h.t.operator,
    });
    expect(sent.statusCode).toBe(202);
    expect(sent.json()).toMatchObject({ delivery: 'sent', deliveryId: expect.stringMatching(/^eml_/) });
    await h.account.resetPassword({ token: h.linkTo(user.email).token, newPassword: NEW_PASSWORD });
    expect(
      await h.t.svc.authEngine.passwords.authenticate(user.email, NEW_PASSWORD, { operation: 'test' }),
    ).toMatchObject({ ok: true });
  });

  it('stores only the hash of the token, and a new request invalidates the older link', async () => {
    later();
    const user = await h.user();
    await h.account.requestPasswordResetEmail({ email: user.email });
    const first = h.linkTo(user.email).token;
    const rows = await h.t.svc.database.db
      .selectFrom('passwordResetTokens')
      .selectAll()
      .where('userId', '=', user.id)
      .execute();
    expect(rows.map((r) => r.tokenHash)).not.toContain(first);
    later();
    await h.account.requestPasswordResetEmail({ email: user.email });
    const second = h.linkTo(user.email).token;
    expect(second).not.toBe(first);
    await expect(h.account.resetPassword({ token: first, newPassword: NEW_PASSWORD })).rejects.toMatchObject({
      code: 'invalid_token',
    });
    await h.account.resetPassword({ token: second, newPassword: NEW_PASSWORD });
  });

  it('expires after 30 minutes, and a too-short password does not use the token', async () => {
    later();
    const user = await h.user();
    await h.account.requestPasswordResetEmail({ email: user.email });
    const { token } = h.linkTo(user.email);
    await expect(h.account.resetPassword({ token, newPassword: 'short' })).rejects.toMatchObject({
      code: 'invalid_request',
    });
    h.t.clock.advance(30 * MINUTE_MS);
    await expect(h.account.resetPassword({ token, newPassword: NEW_PASSWORD })).rejects.toMatchObject({
      code: 'invalid_token',
    });
  });

  it('answers unknown and password-less addresses the same and mails nothing', async () => {
    later();
    const known = await h.user();
    const passwordless = await h.user(undefined, null);
    const unknown = uniqueEmail('ghost');
    const a = await h.account.sendPasswordResetEmail({ email: unknown });
    const b = await h.account.sendPasswordResetEmail({ email: passwordless.email });
    expect(a).toEqual({ ...b, maskedEmail: a.maskedEmail });
    expect(a.deliveryId).toBeNull();
    expect(h.sentTo(unknown)).toHaveLength(0);
    expect(h.sentTo(passwordless.email)).toHaveLength(0);
    const c = await h.account.sendPasswordResetEmail({ email: known.email });
    expect(c.deliveryStatus).toBe('sent');
    expect(c.providerMessageId).not.toBeNull();
    expect(h.sentTo(known.email)).toHaveLength(1);
  });

  it('refuses a second send within the interval with resend_too_soon, alike for an unknown address, and no email', async () => {
    later();
    const user = await h.user();
    const first = await h.account.requestPasswordResetEmail({ email: user.email });
    const unknown = `nobody-${user.email}`;
    await h.account.requestPasswordResetEmail({ email: unknown });
    for (const email of [user.email.toUpperCase(), unknown]) {
      await expect(h.account.requestPasswordResetEmail({ email })).rejects.toMatchObject({
        error: 'resend_too_soon',
        status: 429,
        retryAfterSeconds: 60,
        extra: { nextAllowedSendAt: first.nextAllowedSendAt },
      });
    }
    expect(h.sentTo(user.email)).toHaveLength(1);
  });

  it('uses a trusted template only for an active first-party client, validated before delivery', async () => {
    later();
    const user = await h.user();
    const client = await h.firstPartyClient();
    const thirdParty = await h.firstPartyClient(false);
    const template = 'https://app.example.com/reset?t={token}';
    await expect(
      h.account.sendPasswordResetEmail({
        email: user.email,
        resetUrlTemplate: template,
        clientId: thirdParty.clientId,
      }),
    ).rejects.toMatchObject({ code: 'invalid_request' });
    for (const bad of [
      'http://app.example.com/r?t={token}',
      'https://u:p@app.example.com/{token}',
      'https://app.example.com/',
      '/relative/{token}',
    ]) {
      await expect(
        h.account.sendPasswordResetEmail({
          email: user.email,
          resetUrlTemplate: bad,
          clientId: client.clientId,
        }),
      ).rejects.toMatchObject({ code: 'invalid_request' });
    }
    expect(h.sentTo(user.email)).toHaveLength(0);
    await h.account.sendPasswordResetEmail({
      email: user.email,
      resetUrlTemplate: template,
      clientId: client.clientId,
    });
    const { url } = h.linkTo(user.email);
    expect(`${url.origin}${url.pathname}`).toBe('https://app.example.com/reset');
    const token = url.searchParams.get('t') ?? '';
    await h.account.resetPassword({ token, newPassword: NEW_PASSWORD });
  });

  it('creates a token for an app that delivers it itself (null for unknown addresses)', async () => {
    const user = await h.user();
    expect(await h.account.createPasswordResetToken({ email: uniqueEmail('nobody') })).toBeNull();
    const created = await h.account.createPasswordResetToken({ email: user.email });
    expect(created?.userId).toBe(user.id);
    await h.account.resetPassword({ token: created?.token ?? '', newPassword: NEW_PASSWORD });
  });

  it('records audit events without the token', async () => {
    later();
    const user = await h.user();
    await h.account.requestPasswordResetEmail({ email: user.email }, { ipAddress: '203.0.113.9' });
    const { token } = h.linkTo(user.email);
    await h.account.resetPassword({ token, newPassword: NEW_PASSWORD });
    const rows = await h.t.svc.database.db
      .selectFrom('auditEvents')
      .selectAll()
      .where('userId', '=', user.id)
      .execute();
    const kinds = rows.map((r) => r.kind);
    expect(kinds).toEqual(expect.arrayContaining(['password_reset.requested', 'password_reset.completed']));
    expect(rows.find((r) => r.kind === 'password_reset.requested')?.ipAddress).toBe('203.0.113.9');
    expect(rows.map((r) => r.dataJson).join('')).not.toContain(token);
  });

  it('looks the link up before hashing the new password: a guessed or used link costs no hash', async () => {
    later();
    const user = await h.user();
    const { svc } = h.t;
    const hashed: string[] = [];
    const hash = passwordHashing(TEST_PASSWORD_HASHING);
    // The unit under test over this Svc's storage, email, limits and sessions, with a counted hash.
    const { db } = svc.database;
    const { config, authEngine: engine } = svc;
    const reset = new PasswordReset({
      repositories: accountRepositories(db),
      users: userRepository(db),
      clients: clientRepository(db),
      email: svc.email,
      rateLimiter: svc.rateLimiter,
      policy: config.rateLimits.passwordReset,
      tokenChecks: engine.tokenChecks,
      audit: svc.audit,
      clock: h.t.clock,
      ids: config.ids,
      linkBase: `${config.publicOrigin}${config.authBase}`,
      development: config.development,
      hashPassword: (password) => {
        hashed.push(password);
        return hash(password);
      },
      endAllSessions: async (userId) => {
        await engine.tokens.revocation.logoutAll(userId);
        await engine.browserSessions.endAllForUser(userId);
      },
      claims: svc.accountClaims,
    });
    for (const token of ['guessed-0123456789abcdefghijklmnopqrstuvwxyz', 'x']) {
      await expect(reset.reset({ token, newPassword: NEW_PASSWORD })).rejects.toMatchObject({
        code: 'invalid_token',
      });
    }
    expect(hashed).toEqual([]);
    await reset.send({ email: user.email });
    const { token } = h.linkTo(user.email);
    await reset.reset({ token, newPassword: NEW_PASSWORD });
    await expect(reset.reset({ token, newPassword: 'another passphrase' })).rejects.toMatchObject({
      code: 'invalid_token',
    });
    expect(hashed).toEqual([NEW_PASSWORD]);
  });
});

describe('password reset when delivery fails', () => {
  let h: AccountHarness;
  beforeAll(async () => {
    h = await createAccountHarness('sqlite', { rejectRecipients: 'mailbox unavailable' });
  });
  afterAll(() => h.close());
  const tokensOf = (userId: string) =>
    h.t.svc.database.db
      .selectFrom('passwordResetTokens')
      .select('consumedAt')
      .where('userId', '=', userId)
      .execute();

  it('invalidates the token but answers the same', async () => {
    const user = await h.user();
    const result = await h.account.sendPasswordResetEmail({ email: user.email });
    expect(result.deliveryStatus).toBe('failed');
    expect(result.message).toContain('If an account');
    expect(await tokensOf(user.id)).toEqual([{ consumedAt: expect.any(Number) }]);
  });

  it('an operator hears the refusal (502), never "sent", and the link is void', async () => {
    const user = await h.user();
    const refused = await h.app.inject({
      method: 'POST',
      url: `/svc/admin/auth/api/users/${user.id}/password-reset`,
      headers: h.t.operator,
    });
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toMatchObject({
      error: 'email_delivery_failed',
      message: expect.stringContaining('mailbox unavailable'),
    });
    expect(await tokensOf(user.id)).toEqual([{ consumedAt: expect.any(Number) }]);
  });
});

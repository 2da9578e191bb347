import { afterEach, beforeEach, expect, it } from 'vitest';
import { DAY_MS } from '../../../kernel/clock.js';
import { sha256Hex } from '../../../kernel/crypto.js';
import {
  SvcInvalidOperationError,
  SvcNotFoundError,
  SvcPublicAuthError,
  SvcValidationError,
} from '../../../kernel/errors.js';
import { describeEachDatabase } from '../../../test-support/databases.js';
import { TEST_ORIGIN } from '../../../test-support/test-svc.js';
import {
  createInvitationHarness,
  inviteToken,
  type InvitationHarness,
} from '../../../test-support/invitations.js';

describeEachDatabase('invitation service', (kind) => {
  let h: InvitationHarness;
  let organizationId: string;

  beforeEach(async () => {
    h = await createInvitationHarness(kind);
    const organization = await h.t.svc.admin.createOrganizationAsync({ name: 'Acme Corp' });
    organizationId = organization.id;
    await h.t.svc.admin.createClientAsync({
      clientId: 'web',
      name: 'Web',
      audience: 'https://api.example.com',
      redirectUris: ['https://app.example.com/callback'],
      isFirstParty: true,
    });
  });
  afterEach(async () => {
    await h.close();
  });

  const db = () => h.t.svc.database.db;
  const invite = (email = 'Invitee@Example.com', extra: object = {}) =>
    h.t.svc.auth.createEmailInvitationAsync({ organizationId, email, role: 'Member', ...extra });
  /** Reads the n-th (1-based) email from the loopback SMTP server and returns it with its token. */
  const received = async (n: number) => {
    const message = (await h.smtp.waitFor(n))[n - 1];
    if (message === undefined) throw new Error('no message');
    return { message, token: inviteToken(message.text) };
  };
  const auditKinds = async () =>
    (await db().selectFrom('auditEvents').select('kind').orderBy('occurredAt').orderBy('id').execute()).map(
      (row) => row.kind,
    );

  it('creates a pending invitation, emails the InviteUrl over SMTP and stores only the token hash', async () => {
    const created = await invite('  Invitee@Example.com ', {
      clientId: 'web',
      redirectUri: 'https://app.example.com/callback',
      customFields: { team: 'blue' },
    });
    expect(created).toEqual({
      id: expect.stringMatching(/^inv_/),
      organizationId,
      email: 'Invitee@Example.com',
      role: 'member',
      status: 'pending',
      expiresAt: new Date(h.t.clock.now() + 7 * DAY_MS).toISOString(),
      createdAt: new Date(h.t.clock.now()).toISOString(),
      resentAt: null,
    });
    const { message, token } = await received(1);
    // SMTP clients may lower-case the domain part; the local part is kept as typed.
    expect(message.rcptTo.map((a) => a.toLowerCase())).toEqual(['invitee@example.com']);
    expect(message.headers.subject).toContain('Acme Corp');
    expect(message.text).toContain(
      `${TEST_ORIGIN}${h.t.svc.config.authBase}/invitations/accept?token=${token}`,
    );
    expect(message.text).toContain(`expires in ${7 * 24 * 60} minutes`);

    const row = await db().selectFrom('invitations').selectAll().executeTakeFirstOrThrow();
    expect(row.tokenHash).toBe(sha256Hex(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(JSON.parse(row.customFieldsJson)).toEqual({ team: 'blue' });
    const audit = await db().selectFrom('auditEvents').selectAll().execute();
    expect(JSON.stringify(audit)).not.toContain(token);
    const deliveries = await db().selectFrom('emailDeliveries').selectAll().execute();
    expect(JSON.stringify(deliveries)).not.toContain(token);
    expect(await auditKinds()).toContain('admin.invitation.created');
  });

  it('accepts for the user with the invited email: membership, verified email, single use', async () => {
    await invite();
    const { token } = await received(1);
    const user = await h.t.svc.admin.createUserAsync({ displayName: 'Ina', email: 'invitee@EXAMPLE.com ' });
    expect(user.emailVerified).toBe(false);

    const accepted = await h.invitations.acceptEmailInvitation({
      invitationToken: token,
      userId: user.id,
    });
    expect(accepted).toMatchObject({ organizationId, userId: user.id, role: 'member' });
    expect(await h.t.svc.admin.userHasMembershipAsync(user.id, organizationId)).toBe(true);
    const stored = await db()
      .selectFrom('users')
      .select('emailVerified')
      .where('id', '=', user.id)
      .executeTakeFirst();
    expect(stored?.emailVerified).toBe(1);
    const row = await db().selectFrom('invitations').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'accepted', acceptedUserId: user.id, acceptedAt: h.t.clock.now() });
    expect(await auditKinds()).toContain('invitation.accepted');

    await expect(
      h.invitations.acceptEmailInvitation({ invitationToken: token, userId: user.id }),
    ).rejects.toMatchObject({ error: 'invalid_invitation', status: 400 });
  });

  it('reactivates an existing membership with the invited role', async () => {
    const user = await h.t.svc.admin.createUserAsync({ displayName: 'Ina', email: 'invitee@example.com' });
    await h.t.svc.admin.createMembershipAsync({ organizationId, userId: user.id, role: 'viewer' });
    await invite('invitee@example.com', { role: 'admin' });
    const { token } = await received(1);
    await h.invitations.acceptEmailInvitation({ invitationToken: token, userId: user.id });
    const memberships = await db()
      .selectFrom('memberships')
      .selectAll()
      .where('userId', '=', user.id)
      .execute();
    expect(memberships).toHaveLength(1);
    expect(memberships[0]).toMatchObject({ role: 'admin', active: 1 });
  });

  it('refuses a user whose email differs and leaves the invitation pending', async () => {
    await invite();
    const { token } = await received(1);
    const other = await h.t.svc.admin.createUserAsync({ displayName: 'Other', email: 'other@example.com' });
    const error: unknown = await h.invitations
      .acceptEmailInvitation({ invitationToken: token, userId: other.id })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcPublicAuthError);
    expect(await h.t.svc.admin.userHasMembershipAsync(other.id, organizationId)).toBe(false);
    const row = await db().selectFrom('invitations').select('status').executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');
    await expect(
      h.invitations.acceptEmailInvitation({ invitationToken: token, userId: 'usr_missing' }),
    ).rejects.toBeInstanceOf(SvcPublicAuthError);
  });

  it('resend invalidates the previous token, is rate limited, and the new token works', async () => {
    const created = await invite();
    const first = (await received(1)).token;
    // invitationSend: at least 30 seconds between two sends to the same address.
    await expect(h.t.svc.auth.resendEmailInvitationAsync({ id: created.id })).rejects.toMatchObject({
      error: 'rate_limited',
      status: 429,
    });
    expect(h.smtp.messages).toHaveLength(1);
    h.t.clock.advance(DAY_MS);
    const resent = await h.t.svc.auth.resendEmailInvitationAsync({ id: created.id });
    expect(resent.expiresAt).toBe(new Date(h.t.clock.now() + 7 * DAY_MS).toISOString());
    const second = (await received(2)).token;
    expect(second).not.toBe(first);
    const user = await h.t.svc.admin.createUserAsync({ displayName: 'Ina', email: 'invitee@example.com' });
    await expect(
      h.invitations.acceptEmailInvitation({ invitationToken: first, userId: user.id }),
    ).rejects.toMatchObject({ error: 'invalid_invitation' });
    await h.invitations.acceptEmailInvitation({ invitationToken: second, userId: user.id });
    expect(await auditKinds()).toEqual(
      expect.arrayContaining(['admin.invitation.resent', 'invitation.accepted']),
    );
  });

  it('revoke prevents acceptance; revoked or accepted invitations cannot be resent or revoked again', async () => {
    const created = await invite();
    const { token } = await received(1);
    const revoked = await h.t.svc.auth.revokeEmailInvitationAsync({
      id: created.id,
      reason: 'wrong person',
    });
    expect(revoked.status).toBe('revoked');
    const user = await h.t.svc.admin.createUserAsync({ displayName: 'Ina', email: 'invitee@example.com' });
    await expect(
      h.invitations.acceptEmailInvitation({ invitationToken: token, userId: user.id }),
    ).rejects.toMatchObject({ error: 'invalid_invitation' });
    await expect(h.t.svc.auth.resendEmailInvitationAsync({ id: created.id })).rejects.toBeInstanceOf(
      SvcInvalidOperationError,
    );
    await expect(h.t.svc.auth.revokeEmailInvitationAsync({ id: created.id })).rejects.toBeInstanceOf(
      SvcInvalidOperationError,
    );
    const row = await db().selectFrom('invitations').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      status: 'revoked',
      revokeReason: 'wrong person',
      revokedAt: h.t.clock.now(),
    });
    expect(await auditKinds()).toContain('admin.invitation.revoked');
    await expect(h.t.svc.auth.revokeEmailInvitationAsync({ id: 'inv_missing' })).rejects.toBeInstanceOf(
      SvcNotFoundError,
    );
  });

  it('expires after 7 days: acceptance fails and the list shows expired', async () => {
    const created = await invite();
    const { token } = await received(1);
    const user = await h.t.svc.admin.createUserAsync({ displayName: 'Ina', email: 'invitee@example.com' });
    h.t.clock.advance(7 * DAY_MS);
    await expect(
      h.invitations.acceptEmailInvitation({ invitationToken: token, userId: user.id }),
    ).rejects.toMatchObject({ error: 'invalid_invitation' });
    const page = await h.invitations.listEmailInvitations(organizationId, { limit: 10 });
    expect(page.data).toEqual([{ ...created, status: 'expired' }]);
  });

  it('lists newest first with paging', async () => {
    const a = await invite('a@example.com');
    h.t.clock.advance(1000);
    const b = await invite('b@example.com');
    const first = await h.invitations.listEmailInvitations(organizationId, { limit: 1 });
    expect(first.data.map((i) => i.id)).toEqual([b.id]);
    expect(first.nextCursor).not.toBeNull();
    const second = await h.invitations.listEmailInvitations(organizationId, {
      limit: 1,
      cursor: first.nextCursor ?? undefined,
    });
    expect(second.data.map((i) => i.id)).toEqual([a.id]);
    await expect(h.invitations.listEmailInvitations('org_missing', { limit: 1 })).rejects.toBeInstanceOf(
      SvcNotFoundError,
    );
  });

  it('lists one status as the list shows it: pending, accepted, revoked, or expired (pending past its expiry)', async () => {
    const stale = await invite('stale@example.com');
    h.t.clock.advance(7 * DAY_MS);
    const accepted = await invite('accepted@example.com');
    const { token } = await received(2);
    const user = await h.t.svc.admin.createUserAsync({ displayName: 'Acc', email: 'accepted@example.com' });
    await h.invitations.acceptEmailInvitation({ invitationToken: token, userId: user.id });
    h.t.clock.advance(1000);
    const revoked = await invite('revoked@example.com');
    await h.t.svc.auth.revokeEmailInvitationAsync({ id: revoked.id });
    h.t.clock.advance(1000);
    const pending = await invite('pending@example.com');
    const of = async (status?: 'pending' | 'accepted' | 'revoked' | 'expired') =>
      (await h.invitations.listEmailInvitations(organizationId, { limit: 10, status })).data.map(
        (invitation) => [invitation.id, invitation.status],
      );
    expect(await of('pending')).toEqual([[pending.id, 'pending']]);
    expect(await of('accepted')).toEqual([[accepted.id, 'accepted']]);
    expect(await of('revoked')).toEqual([[revoked.id, 'revoked']]);
    expect(await of('expired')).toEqual([[stale.id, 'expired']]);
    expect((await of()).map(([id]) => id)).toEqual([pending.id, revoked.id, accepted.id, stale.id]);
    // A resend is when it was last sent; the first send stays its creation.
    h.t.clock.advance(60_000);
    const resent = await h.t.svc.auth.resendEmailInvitationAsync({ id: pending.id });
    expect(resent).toMatchObject({
      createdAt: pending.createdAt,
      resentAt: new Date(h.t.clock.now()).toISOString(),
    });
  });

  it('rejects bad input before storing or sending anything', async () => {
    const bad: [object, unknown][] = [
      [{ email: 'not-an-email' }, SvcValidationError],
      [{ role: '  ' }, SvcValidationError],
      [{ organizationId: 'org_missing' }, SvcNotFoundError],
      [{ clientId: 'nope' }, SvcValidationError],
      [{ clientId: 'web', redirectUri: 'https://evil.example/cb' }, SvcValidationError],
      [{ redirectUri: 'https://app.example.com/callback' }, SvcValidationError],
      [{ customFields: { n: 1 } }, SvcValidationError],
      [{ customFields: ['x'] }, SvcValidationError],
    ];
    for (const [override, type] of bad) {
      await expect(
        h.t.svc.auth.createEmailInvitationAsync({
          organizationId,
          email: 'x@example.com',
          role: 'member',
          ...override,
        } as never),
      ).rejects.toBeInstanceOf(type);
    }
    expect(await db().selectFrom('invitations').selectAll().execute()).toEqual([]);
    expect(h.smtp.messages).toEqual([]);
    for (const token of ['', 'x'.repeat(600), 'x'.repeat(100), 42]) {
      await expect(
        h.invitations.acceptEmailInvitation({ invitationToken: token as string, userId: 'usr_x' }),
      ).rejects.toMatchObject({ error: 'invalid_invitation' });
    }
  });
});

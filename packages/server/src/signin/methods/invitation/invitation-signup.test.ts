import { afterEach, beforeEach, expect, it } from 'vitest';
import { SvcConflictError, SvcPublicAuthError, SvcValidationError } from '../../../kernel/errors.js';
import { describeAboveStorage } from '../../../test-support/databases.js';
import {
  createInvitationHarness,
  inviteToken,
  type InvitationHarness,
} from '../../../test-support/invitations.js';

const AUDIENCE = 'https://api.example.com';

describeAboveStorage('invitation signup', (kind) => {
  let h: InvitationHarness;
  let organizationId: string;
  let token: string;

  beforeEach(async () => {
    h = await createInvitationHarness(kind);
    organizationId = (await h.t.svc.admin.createOrganizationAsync({ name: 'Acme Corp' })).id;
    for (const [clientId, isFirstParty] of [
      ['web', true],
      ['partner', false],
    ] as const) {
      await h.t.svc.admin.createClientAsync({
        clientId,
        name: clientId,
        audience: AUDIENCE,
        redirectUris: ['https://app.example.com/callback'],
        isFirstParty,
      });
    }
    await h.t.svc.auth.createEmailInvitationAsync({
      organizationId,
      email: 'New.Person@example.com',
      role: 'editor',
    });
    const [message] = await h.smtp.waitFor(1);
    token = inviteToken(message?.text ?? '');
  });
  afterEach(async () => {
    await h.close();
  });

  const db = () => h.t.svc.database.db;
  const users = () => db().selectFrom('users').selectAll().execute();
  const status = async () =>
    (await db().selectFrom('invitations').select('status').executeTakeFirstOrThrow()).status;

  it('creates a verified passwordless user, the membership, and signs in to the invited organization', async () => {
    const result = await h.signup.acceptEmailInvitationSignup({
      invitationToken: token,
      displayName: ' New Person ',
      clientId: 'web',
    });
    expect(result).toMatchObject({ requiresOrganizationSelection: false, requiresMfa: false });
    expect(result.tokens).not.toBeNull();
    const validated = await h.t.svc.auth.validateAccessTokenAsync(result.tokens?.accessToken ?? '', AUDIENCE);
    expect(validated?.organizationId).toBe(organizationId);

    const [user] = await users();
    expect(user).toMatchObject({
      displayName: 'New Person',
      email: 'New.Person@example.com',
      emailVerified: 1,
      passwordHash: null,
    });
    expect(validated?.userId).toBe(user?.id);
    const membership = await db().selectFrom('memberships').selectAll().executeTakeFirstOrThrow();
    expect(membership).toMatchObject({ organizationId, userId: user?.id, role: 'editor', active: 1 });
    expect(await status()).toBe('accepted');
    // Created by the user service, as every signup: the same audit event as an operator's creation.
    const created = await db()
      .selectFrom('auditEvents')
      .selectAll()
      .where('kind', '=', 'admin.user.created')
      .execute();
    expect(created.map((event) => [event.userId, event.actorType])).toEqual([[user?.id, 'system']]);
    const [signedIn] = await db()
      .selectFrom('auditEvents')
      .selectAll()
      .where('kind', '=', 'oauth.direct_login.succeeded')
      .execute();
    expect(signedIn).toMatchObject({ userId: user?.id, clientId: 'web', organizationId });
    expect(JSON.parse(signedIn?.dataJson ?? '{}')).toMatchObject({ method: 'invitation_signup' });

    await expect(
      h.signup.acceptEmailInvitationSignup({
        invitationToken: token,
        displayName: 'Again',
        clientId: 'web',
      }),
    ).rejects.toMatchObject({ error: 'invalid_invitation' });
    expect(await users()).toHaveLength(1);
  });

  it('applies the first-party rule before looking at the token', async () => {
    for (const clientId of ['partner', 'unknown']) {
      const error: unknown = await h.signup
        .acceptEmailInvitationSignup({ invitationToken: token, displayName: 'X', clientId })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SvcPublicAuthError);
      expect(error).toMatchObject({ error: 'invalid_client', status: 400 });
    }
    expect(await users()).toEqual([]);
    expect(await status()).toBe('pending');
    const rejected = await db()
      .selectFrom('auditEvents')
      .select('kind')
      .where('kind', '=', 'oauth.direct_login.rejected')
      .execute();
    expect(rejected).toHaveLength(2);
  });

  it('refuses when an account already has the email (409) and leaves the invitation pending', async () => {
    await h.t.svc.admin.createUserAsync({ displayName: 'Existing', email: 'new.person@EXAMPLE.com' });
    await expect(
      h.signup.acceptEmailInvitationSignup({
        invitationToken: token,
        displayName: 'X',
        clientId: 'web',
      }),
    ).rejects.toBeInstanceOf(SvcConflictError);
    expect(await status()).toBe('pending');
  });

  it('rejects a blank display name and a bad token without creating anything', async () => {
    await expect(
      h.signup.acceptEmailInvitationSignup({
        invitationToken: token,
        displayName: '  ',
        clientId: 'web',
      }),
    ).rejects.toBeInstanceOf(SvcValidationError);
    await expect(
      h.signup.acceptEmailInvitationSignup({
        invitationToken: 'nope',
        displayName: 'X',
        clientId: 'web',
      }),
    ).rejects.toMatchObject({ error: 'invalid_invitation' });
    expect(await users()).toEqual([]);
  });
});

import { afterEach, beforeEach, expect, it } from 'vitest';
import { SvcConflictError } from '../../kernel/errors.js';
import type { Db } from '../../storage/database.js';
import { describeAboveStorage } from '../../test-support/databases.js';
import type { FakeClock } from '../../test-support/fake-clock.js';
import { oidcAccountLinking } from '../../test-support/federation/account-linking.js';
import { insertConnectionRow } from '../../test-support/federation/connections.js';
import { createTestSvc, type TestSvc } from '../../test-support/test-svc.js';
import type { ExternalIdentity, OidcAccountLinking } from './account-linking.js';

const GOOGLE = { id: 'oidc_google', authenticationMethod: 'google', organizationId: null };
const GITHUB = { id: 'oidc_github', authenticationMethod: 'github', organizationId: null };

function identity(overrides: Partial<ExternalIdentity> = {}): ExternalIdentity {
  return {
    subject: 'sub-ann',
    email: 'ann@example.com',
    emailVerified: true,
    displayName: 'Ann Example',
    firstName: null,
    lastName: null,
    preferredUsername: null,
    ...overrides,
  };
}

describeAboveStorage('linking provider identities to accounts', (kind) => {
  // The tests sign the same identities in and count every user: each has an app of its own.
  let t: TestSvc;
  let db: Db;
  let clock: FakeClock;
  let linking: OidcAccountLinking;

  beforeEach(async () => {
    t = await createTestSvc(kind);
    db = t.svc.database.db;
    clock = t.clock;
    linking = oidcAccountLinking(t);
    for (const connection of [GOOGLE, GITHUB]) {
      await insertConnectionRow(db, connection.id, connection === GOOGLE ? 'Google' : 'GitHub');
    }
  });
  afterEach(async () => {
    await t.close();
  });

  const auditKinds = async (): Promise<string[]> =>
    (await db.selectFrom('auditEvents').select('kind').orderBy('occurredAt').execute()).map((r) => r.kind);

  it('signs up a new identity, then signs the same identity in to the same account', async () => {
    const first = await linking.resolve(GOOGLE, identity(), { ipAddress: '203.0.113.7' });
    expect(first.kind).toBe('created');
    if (first.kind !== 'created') return;
    expect(first.user).toMatchObject({ email: 'ann@example.com', emailVerified: true, passwordHash: null });
    clock.advance(60_000);
    const again = await linking.resolve(GOOGLE, identity({ email: 'ann.new@example.com' }));
    expect(again).toMatchObject({ kind: 'linked', newLink: false, user: { id: first.user.id } });
    const [link] = await linking.list(first.user.id);
    expect(link).toMatchObject({ connectionId: GOOGLE.id, subject: 'sub-ann', email: 'ann.new@example.com' });
    expect(link?.lastUsedAt).toBe(link === undefined ? 0 : link.createdAt + 60_000);
    const linked = await db
      .selectFrom('auditEvents')
      .selectAll()
      .where('kind', '=', 'oidc.identity.linked')
      .executeTakeFirstOrThrow();
    expect(linked).toMatchObject({ userId: first.user.id, ipAddress: '203.0.113.7' });
  });

  it('links a new identity to the account of an address the provider asserts verified', async () => {
    const ann = await t.svc.admin.createUserAsync({
      displayName: 'Ann',
      email: 'Ann@Example.com',
      password: 'a long password',
    });
    const outcome = await linking.resolve(GOOGLE, identity({ email: ' ann@example.COM ' }));
    expect(outcome).toMatchObject({ kind: 'linked', newLink: true, user: { id: ann.id } });
    expect((await linking.list(ann.id)).map((l) => l.subject)).toEqual(['sub-ann']);
  });

  it('never links by an address the provider did not assert verified', async () => {
    const ann = await t.svc.admin.createUserAsync({
      displayName: 'Ann',
      email: 'ann@example.com',
      password: 'a long password',
    });
    const outcome = await linking.resolve(GITHUB, identity({ emailVerified: false }));
    expect(outcome).toEqual({ kind: 'refused', reason: 'email_not_verified' });
    expect(await linking.list(ann.id)).toEqual([]);
    expect(await auditKinds()).toContain('oidc.identity.link_refused');
  });

  it('signs up an unverified address as unverified, and an identity without an address without one', async () => {
    const unverified = await linking.resolve(
      GITHUB,
      identity({ subject: '1', email: 'bob@example.com', emailVerified: false }),
    );
    expect(unverified).toMatchObject({
      kind: 'created',
      user: { email: 'bob@example.com', emailVerified: false },
    });
    const none = await linking.resolve(
      GITHUB,
      identity({
        subject: '2',
        email: null,
        emailVerified: false,
        displayName: null,
        preferredUsername: 'octo',
      }),
    );
    expect(none).toMatchObject({ kind: 'created', user: { email: null, displayName: 'octo' } });
  });

  it('refuses a linked identity of a deactivated account', async () => {
    const created = await linking.resolve(GOOGLE, identity());
    if (created.kind !== 'created') throw new Error('expected a new account');
    await db.updateTable('users').set({ active: 0 }).where('id', '=', created.user.id).execute();
    expect(await linking.resolve(GOOGLE, identity())).toEqual({
      kind: 'refused',
      reason: 'account_inactive',
    });
  });

  it('lets a user remove a link, but not the last way an account without password or address signs in', async () => {
    const ann = await t.svc.admin.createUserAsync({
      displayName: 'Ann',
      email: 'ann@example.com',
      password: 'a long password',
    });
    await linking.resolve(GOOGLE, identity());
    const [link] = await linking.list(ann.id);
    expect(await linking.unlink('usr_someone_else', link?.id ?? '')).toBe(false);
    expect(await linking.unlink(ann.id, link?.id ?? '')).toBe(true);
    expect(await linking.list(ann.id)).toEqual([]);
    expect(await auditKinds()).toContain('oidc.identity.unlinked');

    const octo = await linking.resolve(GITHUB, identity({ subject: '9', email: null, emailVerified: false }));
    if (octo.kind !== 'created') throw new Error('expected a new account');
    const [only] = await linking.list(octo.user.id);
    await expect(linking.unlink(octo.user.id, only?.id ?? '')).rejects.toThrow(SvcConflictError);
    expect(await linking.list(octo.user.id)).toHaveLength(1);
  });

  it('links concurrent first sign-ins of one identity to one account', async () => {
    const outcomes = await Promise.all([1, 2, 3].map(() => linking.resolve(GOOGLE, identity())));
    const users = new Set(outcomes.map((o) => (o.kind === 'refused' ? o.reason : o.user.id)));
    expect(users.size).toBe(1);
    expect(await db.selectFrom('users').select('id').execute()).toHaveLength(1);
  });
});

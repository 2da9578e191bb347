import type { SvcOrganizationOption } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../kernel/clock.js';
import { SvcPublicAuthError } from '../kernel/errors.js';
import { createAuthHarness, TEST_PASSWORD, type AuthHarness } from '../test-support/auth-harness.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { OrganizationPolicy } from './organization-policy.js';
import type { PendingAuthTokens } from './pending-auth-tokens.js';
import { SignInEngine } from './sign-in-engine.js';

describeEachDatabase('sign-in engine', (kind) => {
  let h: AuthHarness;

  // One app for the file: each test signs in users of its own.
  beforeAll(async () => {
    h = await createAuthHarness(kind);
  });
  afterAll(async () => {
    await h.close();
  });

  const signIn = (userId: string, requestedOrganizationId: string | null = null, flow = 'authorize') =>
    h.engine.signIn.signIn({
      userId,
      clientId: 'client-x',
      requestedOrganizationId,
      amr: ['pwd'],
      authTime: h.clock.now(),
      flow,
      resume: { authRequestId: 'req_1' },
    });

  const errorOf = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error,
    );

  it('completes user-scoped without memberships and in the only organization with one', async () => {
    const user = await h.given.user();
    const alone = await signIn(user.id);
    expect(alone).toEqual({
      kind: 'complete',
      identity: {
        userId: user.id,
        clientId: 'client-x',
        organizationId: null,
        amr: ['pwd'],
        authTime: h.clock.now(),
        flow: 'authorize',
        resume: { authRequestId: 'req_1' },
      },
    });

    const org = await h.given.organization();
    await h.given.membership(org.id, user.id);
    const one = await signIn(user.id);
    expect(one.kind === 'complete' && one.identity.organizationId).toBe(org.id);
  });

  it('ignores inactive memberships and inactive organizations when counting', async () => {
    const user = await h.given.user();
    const [a, b] = [await h.given.organization('Alpha'), await h.given.organization('Beta')];
    await h.given.membership(a.id, user.id);
    await h.given.membership(b.id, user.id);
    await h.db.updateTable('organizations').set({ active: 0 }).where('id', '=', b.id).execute();
    const outcome = await signIn(user.id);
    expect(outcome.kind === 'complete' && outcome.identity.organizationId).toBe(a.id);
  });

  it('asks to choose among several organizations with a single-use pending token', async () => {
    const user = await h.given.user();
    const beta = await h.given.organization('Beta');
    const alpha = await h.given.organization('Alpha');
    await h.given.membership(beta.id, user.id, 'admin');
    await h.given.membership(alpha.id, user.id);

    const outcome = await signIn(user.id);
    if (outcome.kind !== 'organization_selection') throw new Error(`unexpected ${outcome.kind}`);
    expect(outcome.organizations).toEqual([
      { id: alpha.id, slug: alpha.slug, name: 'Alpha', role: 'member' },
      { id: beta.id, slug: beta.slug, name: 'Beta', role: 'admin' },
    ]);
    expect(outcome.expiresAt).toBe(h.clock.now() + 10 * MINUTE_MS);
    // Only the hash is stored.
    const stored = await h.db.selectFrom('pendingAuthTokens').select('tokenHash').execute();
    expect(stored.map((r) => r.tokenHash)).not.toContain(outcome.pendingAuthToken);

    expect(await h.engine.signIn.pendingSelection(outcome.pendingAuthToken, 'authorize')).toMatchObject({
      userId: user.id,
      clientId: 'client-x',
      resume: { authRequestId: 'req_1' },
    });
    expect(await h.engine.signIn.pendingSelection(outcome.pendingAuthToken, 'direct')).toBeUndefined();

    h.clock.advance(MINUTE_MS);
    const selected = await h.engine.signIn.selectOrganization({
      pendingAuthToken: outcome.pendingAuthToken,
      organizationId: beta.id,
      flow: 'authorize',
    });
    expect(selected).toEqual({
      kind: 'complete',
      identity: {
        userId: user.id,
        clientId: 'client-x',
        organizationId: beta.id,
        amr: ['pwd'],
        authTime: h.clock.now() - MINUTE_MS,
        flow: 'authorize',
        resume: { authRequestId: 'req_1' },
      },
    });

    const again = await errorOf(
      h.engine.signIn.selectOrganization({
        pendingAuthToken: outcome.pendingAuthToken,
        organizationId: beta.id,
        flow: 'authorize',
      }),
    );
    expect(again).toBeInstanceOf(SvcPublicAuthError);
    expect(again).toMatchObject({ code: 'invalid_token', status: 400 });
  });

  it('refuses a foreign organization without using the token, another flow, and an expired token', async () => {
    const user = await h.given.user();
    const [a, b, foreign] = [
      await h.given.organization(),
      await h.given.organization(),
      await h.given.organization(),
    ];
    await h.given.membership(a.id, user.id);
    await h.given.membership(b.id, user.id);
    const outcome = await signIn(user.id);
    if (outcome.kind !== 'organization_selection') throw new Error('expected a selection');
    const token = outcome.pendingAuthToken;

    expect(
      await errorOf(
        h.engine.signIn.selectOrganization({
          pendingAuthToken: token,
          organizationId: foreign.id,
          flow: 'authorize',
        }),
      ),
    ).toMatchObject({ code: 'access_denied', status: 403 });
    expect(
      await errorOf(
        h.engine.signIn.selectOrganization({ pendingAuthToken: token, organizationId: a.id, flow: 'direct' }),
      ),
    ).toMatchObject({ code: 'invalid_token' });
    // Neither attempt used the token.
    expect(
      (
        await h.engine.signIn.selectOrganization({
          pendingAuthToken: token,
          organizationId: a.id,
          flow: 'authorize',
        })
      ).kind,
    ).toBe('complete');

    const late = await signIn(user.id);
    if (late.kind !== 'organization_selection') throw new Error('expected a selection');
    h.clock.advance(10 * MINUTE_MS);
    expect(
      await errorOf(
        h.engine.signIn.selectOrganization({
          pendingAuthToken: late.pendingAuthToken,
          organizationId: a.id,
          flow: 'authorize',
        }),
      ),
    ).toMatchObject({ code: 'invalid_token' });
  });

  it('lets exactly one of concurrent selections with the same token through', async () => {
    const user = await h.given.user();
    const [a, b] = [await h.given.organization(), await h.given.organization()];
    await h.given.membership(a.id, user.id);
    await h.given.membership(b.id, user.id);
    const outcome = await signIn(user.id);
    if (outcome.kind !== 'organization_selection') throw new Error('expected a selection');
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () =>
        h.engine.signIn.selectOrganization({
          pendingAuthToken: outcome.pendingAuthToken,
          organizationId: a.id,
          flow: 'authorize',
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });

  it('honours a requested organization only for an active member', async () => {
    const user = await h.given.user();
    const [a, b] = [await h.given.organization(), await h.given.organization()];
    await h.given.membership(a.id, user.id);
    await h.given.membership(b.id, user.id);
    const chosen = await signIn(user.id, b.id);
    expect(chosen.kind === 'complete' && chosen.identity.organizationId).toBe(b.id);

    const stranger = await h.given.organization();
    expect(await errorOf(signIn(user.id, stranger.id))).toMatchObject({ code: 'access_denied', status: 403 });
    await h.db.updateTable('memberships').set({ active: 0 }).where('organizationId', '=', b.id).execute();
    expect(await errorOf(signIn(user.id, b.id))).toMatchObject({ code: 'access_denied' });
  });

  it('authenticates passwords and fails generically for every other case', async () => {
    const user = await h.given.user({ email: 'Ann@Example.com' });
    const ok = await h.engine.passwords.authenticate('  ann@example.COM ', TEST_PASSWORD, {
      operation: 'test',
    });
    expect(ok.ok && ok.user.id).toBe(user.id);

    expect(
      await h.engine.passwords.authenticate('ann@example.com', 'wrong password', { operation: 'test' }),
    ).toEqual({ ok: false });
    expect(
      await h.engine.passwords.authenticate('nobody@example.com', TEST_PASSWORD, { operation: 'test' }),
    ).toEqual({ ok: false });
    await h.given.user({ email: 'nopass@example.com', password: null });
    expect(
      await h.engine.passwords.authenticate('nopass@example.com', TEST_PASSWORD, { operation: 'test' }),
    ).toEqual({ ok: false });
    await h.db.updateTable('users').set({ active: 0 }).where('id', '=', user.id).execute();
    expect(
      await h.engine.passwords.authenticate('ann@example.com', TEST_PASSWORD, { operation: 'test' }),
    ).toEqual({ ok: false });
  });
});

describe('sign-in engine and the MFA gate', () => {
  it('hands the memberships the organization policy read to the MFA gate instead of reading them again', async () => {
    const acme = { id: 'org_1', slug: 'acme', name: 'Acme', role: 'admin' };
    let reads = 0;
    const organizations = new OrganizationPolicy({
      memberships: {
        listUserOrganizations: () => {
          reads += 1;
          return Promise.resolve([acme]);
        },
        hasActiveMembership: () => Promise.resolve(true),
      },
    });
    const handed: (readonly SvcOrganizationOption[] | undefined)[] = [];
    const engine = new SignInEngine({
      organizations,
      // Neither sign-in below asks for a selection, so no pending token is issued.
      pending: {} as PendingAuthTokens,
      mfa: {
        challengeFor: (_identity, known) => {
          handed.push(known);
          return Promise.resolve(null);
        },
      },
    });
    const request = { userId: 'usr_1', clientId: 'client-x', amr: ['pwd'], authTime: 0, flow: 'direct' };

    const decided = await engine.signIn({ ...request, requestedOrganizationId: null });
    expect(decided.kind === 'complete' && decided.identity.organizationId).toBe('org_1');
    expect(reads).toBe(1);
    expect(handed).toEqual([[acme]]);

    // A requested organization is checked without listing the memberships: the gate reads them itself.
    await engine.signIn({ ...request, requestedOrganizationId: 'org_1' });
    expect(reads).toBe(1);
    expect(handed[1]).toBeUndefined();
  });
});

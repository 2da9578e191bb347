import { pageSchema, svcScimSyncEventSchema } from '@svc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  ACCOUNT_PASSWORD,
  createAccountHarness,
  emailVerifiedOf,
  type AccountHarness,
} from '../test-support/account-harness.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { givenActiveDomainClaim } from '../test-support/federation/sso-connections.js';
import {
  expectScimError,
  PATCH_SCHEMA,
  scimTenant,
  scimUser,
  type ScimTenant,
} from '../test-support/scim.js';
import { operatorApi } from '../test-support/scim-mappings.js';

/**
 * A SCIM connection stays inside its tenant (RFC 7644 §6): it changes an account's address and name
 * only while the account belongs to no one else, links an address to an existing account only when
 * that account's address is verified (or nobody else holds it), and never sees another tenant's users.
 */
describeEachDatabase('SCIM tenant boundary', (kind) => {
  let h: AccountHarness;
  let clientId: string;

  beforeAll(async () => {
    h = await createAccountHarness(kind);
    clientId = (await h.firstPartyClient()).clientId;
  });
  afterAll(async () => {
    await h.close();
  });

  const account = (id: string) => h.t.svc.admin.getUserAsync(id);
  const filter = (tenant: ScimTenant, expression: string) =>
    tenant.call('GET', `/Users?filter=${encodeURIComponent(expression)}`);
  const patch = (tenant: ScimTenant, id: string, Operations: unknown[]) =>
    tenant.call('PATCH', `/Users/${id}`, { schemas: [PATCH_SCHEMA], Operations });
  const failedSyncEvents = async (tenant: ScimTenant) =>
    pageSchema(svcScimSyncEventSchema).parse(
      (
        await operatorApi(h.t.svc)(
          'GET',
          `/scim-connections/${tenant.connectionId}/sync-events?outcome=failed&limit=50`,
        )
      ).body,
    ).data;
  /** The owner of the address proves it with the emailed link (no sign-in, no session). */
  const verifyByLink = async (email: string) => {
    await h.account.createEmailVerificationToken({ email });
    await h.account.verifyEmail({ token: h.linkTo(email).token });
  };
  /** Whether an email code sign-in at the address reaches any account (a code is mailed only then). */
  const signInReachesAnAccount = async (email: string) => {
    await h.t.svc.auth.requestEmailOtpAsync({ email, clientId });
    return h.sentTo(email).length > 0;
  };

  it('tenant A cannot move an address tenant B also holds: its PATCH and PUT stay on its own record', async () => {
    const a = await scimTenant(h.t, 'Attacker');
    const b = await scimTenant(h.t, 'Victim Co');
    const created = await a.call(
      'POST',
      '/Users',
      scimUser('alice@victim.example', { displayName: 'Alice' }),
    );
    expect(created.status).toBe(201);
    const alice = String(created.body?.id);
    // B learns nothing of A's user, by id or by filter.
    expectScimError(await b.call('GET', `/Users/${alice}`), 404);
    for (const expression of [
      'userName eq "alice@victim.example"',
      'emails.value eq "alice@victim.example"',
    ]) {
      expect((await filter(b, expression)).body).toMatchObject({ totalResults: 0, Resources: [] });
    }
    await verifyByLink('alice@victim.example');
    const linked = await b.call('POST', '/Users', scimUser('alice@victim.example'));
    expect(linked.status).toBe(201);
    expect(linked.body?.id).toBe(alice);

    h.t.clock.advance(1000);
    const moved = await patch(a, alice, [
      { op: 'replace', path: 'userName', value: 'mallory@attacker.example' },
      { op: 'replace', path: 'emails', value: [{ value: 'mallory@attacker.example', primary: true }] },
      { op: 'replace', path: 'displayName', value: 'Mallory' },
    ]);
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ userName: 'mallory@attacker.example', displayName: 'Mallory' });
    expect((await a.call('GET', `/Users/${alice}`)).body).toMatchObject({
      id: alice,
      userName: 'mallory@attacker.example',
      emails: [{ value: 'mallory@attacker.example' }],
    });
    expect(await account(alice)).toMatchObject({ email: 'alice@victim.example', displayName: 'Alice' });
    expect(await emailVerifiedOf(h.t, alice)).toBe(1);
    expect(await signInReachesAnAccount('mallory@attacker.example')).toBe(false);

    const replaced = await a.call(
      'PUT',
      `/Users/${alice}`,
      scimUser('eve@attacker.example', { name: { givenName: 'Eve', familyName: 'Owned' } }),
    );
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ userName: 'eve@attacker.example', name: { givenName: 'Eve' } });
    expect(await account(alice)).toMatchObject({ email: 'alice@victim.example', displayName: 'Alice' });
    expect(await signInReachesAnAccount('eve@attacker.example')).toBe(false);
    // B still reads its own record of Alice.
    expect((await b.call('GET', `/Users/${alice}`)).body).toMatchObject({ userName: 'alice@victim.example' });

    // A's deprovisioning ends A's membership only: the account and B's membership stay.
    expect((await a.call('DELETE', `/Users/${alice}`)).status).toBe(204);
    expect(await account(alice)).toMatchObject({ active: true, email: 'alice@victim.example' });
    expect(await h.t.svc.admin.userHasMembershipAsync(alice, a.organizationId)).toBe(false);
    expect(await h.t.svc.admin.userHasMembershipAsync(alice, b.organizationId)).toBe(true);
  });

  it('a person who signed in themselves is theirs: the connection that created the account can no longer rename it', async () => {
    const a = await scimTenant(h.t, 'Own Session');
    const created = await a.call(
      'POST',
      '/Users',
      scimUser('bob@own-session.example', { displayName: 'Bob' }),
    );
    const bob = String(created.body?.id);
    await h.t.svc.auth.requestMagicLinkAsync({ email: 'bob@own-session.example', clientId });
    const signedIn = await h.t.svc.auth.completeMagicLinkAsync({
      token: h.linkTo('bob@own-session.example').token,
      clientId,
    });
    expect(signedIn.tokens?.accessToken).toEqual(expect.any(String));

    const renamed = await patch(a, bob, [
      { op: 'replace', path: 'displayName', value: 'Robert' },
      { op: 'replace', path: 'emails', value: [{ value: 'robert@own-session.example', primary: true }] },
    ]);
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ displayName: 'Robert' });
    expect(await account(bob)).toMatchObject({ displayName: 'Bob', email: 'bob@own-session.example' });
  });

  it('refuses to link an unverified account someone else holds: 409 and a failed sync event, nothing linked', async () => {
    const b = await scimTenant(h.t, 'Refused');
    const owner = await h.user('carol@refused.example');
    const refused = await b.call('POST', '/Users', scimUser('carol@refused.example'));
    expectScimError(refused, 409, 'uniqueness');
    expect(String(refused.body?.detail)).toMatch(/exists and is not verified.*verifies/);
    expect(await h.t.svc.admin.userHasMembershipAsync(owner.id, b.organizationId)).toBe(false);
    expect((await filter(b, 'userName eq "carol@refused.example"')).body).toMatchObject({ totalResults: 0 });
    expect(await failedSyncEvents(b)).toEqual([
      expect.objectContaining({
        kind: 'scim.user.link_refused',
        outcome: 'failed',
        resourceType: 'User',
        data: expect.objectContaining({ reason: 'account_unverified' }),
      }),
    ]);
    expect(await account(owner.id)).toMatchObject({
      email: 'carol@refused.example',
      displayName: 'Ann Example',
    });

    // Once its owner proves the address, the same create joins the account.
    await verifyByLink('carol@refused.example');
    const joined = await b.call('POST', '/Users', scimUser('carol@refused.example'));
    expect(joined.status).toBe(201);
    expect(joined.body?.id).toBe(owner.id);
    expect(await account(owner.id)).toMatchObject({ displayName: 'Ann Example' });
  });

  it('an account only this connection holds follows the IdP, its new address unverified', async () => {
    const a = await scimTenant(h.t, 'Bare');
    const created = await a.call('POST', '/Users', scimUser('dan@bare.example', { displayName: 'Dan' }));
    const dan = String(created.body?.id);
    expect(await emailVerifiedOf(h.t, dan)).toBe(0);
    const patched = await patch(a, dan, [
      { op: 'replace', path: 'displayName', value: 'Daniel' },
      { op: 'replace', path: 'emails', value: [{ value: 'daniel@bare.example', primary: true }] },
    ]);
    expect(patched.status).toBe(200);
    expect(await account(dan)).toMatchObject({ displayName: 'Daniel', email: 'daniel@bare.example' });
    const put = await a.call('PUT', `/Users/${dan}`, scimUser('dani@bare.example', { displayName: 'Dani' }));
    expect(put.status).toBe(200);
    expect(await account(dan)).toMatchObject({ displayName: 'Dani', email: 'dani@bare.example' });
    // Another connection cannot link it: unverified, and this connection's.
    const other = await scimTenant(h.t, 'Bare Elsewhere');
    expectScimError(await other.call('POST', '/Users', scimUser('dani@bare.example')), 409, 'uniqueness');
  });

  it('an account created under an active domain claim of the organization has its address verified', async () => {
    const a = await scimTenant(h.t, 'Claimed');
    await givenActiveDomainClaim(h.t, a.organizationId, 'claimed.example');
    const claimed = await a.call('POST', '/Users', scimUser('erin@claimed.example'));
    const unclaimed = await a.call('POST', '/Users', scimUser('erin@unclaimed.example'));
    expect(await emailVerifiedOf(h.t, String(claimed.body?.id))).toBe(1);
    expect(await emailVerifiedOf(h.t, String(unclaimed.body?.id))).toBe(0);
    // Another organization's claim proves nothing for this one.
    const b = await scimTenant(h.t, 'Not The Claimant');
    const elsewhere = await b.call('POST', '/Users', scimUser('fay@claimed.example'));
    expect(await emailVerifiedOf(h.t, String(elsewhere.body?.id))).toBe(0);
    // A verified address may be linked by another connection.
    const linked = await b.call('POST', '/Users', scimUser('erin@claimed.example'));
    expect(linked.status).toBe(201);
    expect(linked.body?.id).toBe(claimed.body?.id);
  });

  it('an organization whose active domain claim covers the address claims an unverified account someone else holds', async () => {
    const b = await scimTenant(h.t, 'Domain Owner');
    await givenActiveDomainClaim(h.t, b.organizationId, 'domain-owner.example');
    const email = 'gus@domain-owner.example';
    const squatted = await h.user(email);
    const passwordLogin = () => h.post('/password/login', { email, password: ACCOUNT_PASSWORD, clientId });
    expect((await passwordLogin()).statusCode).toBe(200);

    const linked = await b.call('POST', '/Users', scimUser(email));
    expect(linked.status).toBe(201);
    expect(linked.body?.id).toBe(squatted.id);
    expect(await emailVerifiedOf(h.t, squatted.id)).toBe(1);
    // Whoever set the password without proving the address no longer signs in with it.
    expect((await passwordLogin()).statusCode).toBe(401);
    expect(await h.t.svc.admin.userHasMembershipAsync(squatted.id, b.organizationId)).toBe(true);
  });
});

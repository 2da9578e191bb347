import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../test-support/databases.js';
import { expectScimError, scimTenant, scimUser, type ScimTenant } from '../test-support/scim.js';
import { createTestSvc, type TestSvc } from '../test-support/test-svc.js';

/**
 * SCIM users with Unicode addresses (docs/decisions/admin-email-identity-ascii-exact.md): an address that only
 * upper-cases to an account's never reaches that account, and the `emails.value` filter compares
 * addresses as the email key does (ASCII case folded, domains as A-labels).
 */
describeEachDatabase('SCIM users with Unicode email addresses', (kind) => {
  let t: TestSvc;
  let acme: ScimTenant;
  beforeAll(async () => {
    t = await createTestSvc(kind);
    acme = await scimTenant(t);
  });
  afterAll(() => t.close());

  const filtered = async (address: string) => {
    const filter = encodeURIComponent(`emails.value eq "${address}"`);
    const listed = await acme.call('GET', `/Users?filter=${filter}`);
    expect(listed.status).toBe(200);
    return (listed.body?.Resources as { id: string }[]).map((resource) => resource.id);
  };

  it('never provisions an address that only upper-cases to an existing account’s into that account', async () => {
    const ceo = await t.svc.admin.createUserAsync({
      displayName: 'Ceo',
      email: 'ceo@github.test',
      password: null,
    });
    const admin = await t.svc.admin.createUserAsync({
      displayName: 'Admin',
      email: 'admin@github.test',
      password: null,
    });

    expectScimError(await acme.call('POST', '/Users', scimUser('ceo@gıthub.test')), 400, 'invalidValue');
    const local = await acme.call('POST', '/Users', scimUser('admın@github.test'));
    expectScimError(local, 400, 'invalidValue');
    expect(String(local.body?.detail)).toContain('part before the @ is ASCII');

    for (const user of [ceo, admin]) {
      expect(await t.svc.admin.userHasMembershipAsync(user.id, acme.organizationId)).toBe(false);
    }
    expect(await filtered('ceo@gıthub.test')).toEqual([]);
  });

  it('matches emails.value by the email key: ASCII case folded, a domain by its A-label, nothing else folded', async () => {
    const created = await acme.call(
      'POST',
      '/Users',
      scimUser('dana@github.test', {
        emails: [
          { value: 'dana@github.test', type: 'work', primary: true },
          { value: 'dana@bücher.example', type: 'home' },
          { value: 'dåna@github.test', type: 'other' },
        ],
      }),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = String(created.body?.id);

    expect(await filtered('DANA@GITHUB.test')).toEqual([id]);
    expect(await filtered('dana@gıthub.test')).toEqual([]);
    expect(await filtered('danı@github.test')).toEqual([]);
    expect(await filtered('dana@xn--bcher-kva.example')).toEqual([id]);
    expect(await filtered('DANA@BÜCHER.example')).toEqual([id]);
    // A value the key refuses matches itself only (ASCII letters folded).
    expect(await filtered('DåNA@github.test')).toEqual([id]);
    expect(await filtered('dÅna@github.test')).toEqual([]);
  });
});

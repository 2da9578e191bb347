import { svcOidcConnectionSchema } from '@svc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SvcNotFoundError, SvcValidationError } from '../../kernel/errors.js';
import { describeAboveStorage } from '../../test-support/databases.js';
import {
  oidcConnectionBody,
  pkcs8Key,
  TEST_OIDC_CLIENT_SECRET,
} from '../../test-support/oidc-connections.js';
import { createTestSvc, type TestSvc } from '../../test-support/test-svc.js';

/**
 * The in-process side of OIDC connections: SvcAdminService's operations, the secrets sealed at rest, and
 * the enabled connections with their resolved profiles and decrypted secrets that sign-in reads.
 */
describeAboveStorage('OIDC connections in process', (kind) => {
  let t: TestSvc;
  let appleKey: string;

  beforeAll(async () => {
    t = await createTestSvc(kind);
    appleKey = await pkcs8Key('ES256');
  });
  afterAll(() => t.close());

  const rowOf = (id: string) =>
    t.svc.database.db
      .selectFrom('oidcConnections')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const rejection = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error,
    );

  it('creates, reads, lists, updates and deletes through SvcAdminService with the HTTP rules', async () => {
    const { admin } = t.svc;
    const created = await admin.createOidcConnectionAsync(
      oidcConnectionBody('Microsoft', { microsoftTenant: 'Contoso.com' }),
    );
    expect(svcOidcConnectionSchema.strict().parse(created)).toEqual(created);
    expect(created).toMatchObject({
      providerType: 'Microsoft',
      microsoftTenant: 'contoso.com',
      clientSecretSet: true,
    });
    expect(await admin.getOidcConnectionAsync(created.id)).toEqual(created);
    expect((await admin.listOidcConnectionsAsync()).data.map((c) => c.id)).toContain(created.id);

    const updated = await admin.updateOidcConnectionAsync(created.id, {
      ...oidcConnectionBody('Microsoft', { displayName: 'Work account', clientSecret: undefined }),
      providerType: 'microsoft',
    });
    expect(updated).toMatchObject({
      displayName: 'Work account',
      microsoftTenant: 'common',
      clientSecretSet: true,
    });
    expect(await admin.disableOidcConnectionAsync(created.id)).toMatchObject({ enabled: false });
    expect(await admin.deleteOidcConnectionAsync(created.id)).toEqual({ deleted: true });

    const invalid = await rejection(
      admin.createOidcConnectionAsync(oidcConnectionBody('Google', { clientSecret: null })),
    );
    expect(invalid).toBeInstanceOf(SvcValidationError);
    expect((invalid as SvcValidationError).details).toEqual([
      { path: 'clientSecret', message: 'is required for a Google connection' },
    ]);
    expect(await rejection(admin.getOidcConnectionAsync(created.id))).toBeInstanceOf(SvcNotFoundError);
    expect(await rejection(admin.getOidcConnectionAsync('oidc_\u0000'))).toBeInstanceOf(SvcValidationError);
  });

  it('seals the client secret and the Apple key at rest: the row holds neither in clear', async () => {
    const google = await t.svc.admin.createOidcConnectionAsync(oidcConnectionBody('Google'));
    const apple = await t.svc.admin.createOidcConnectionAsync(
      oidcConnectionBody('Apple', { applePrivateKeyPem: appleKey }),
    );
    const keyBody = appleKey.split('\n')[1] ?? '';
    for (const row of [await rowOf(google.id), await rowOf(apple.id)]) {
      const stored = JSON.stringify(row);
      expect(stored).not.toContain(TEST_OIDC_CLIENT_SECRET);
      expect(stored).not.toContain('PRIVATE KEY');
      expect(stored).not.toContain(keyBody);
    }
    expect((await rowOf(google.id)).clientSecretSealed).toMatch(/^v1\./);
    expect((await rowOf(apple.id)).applePrivateKeySealed).toMatch(/^v1\./);
    expect((await rowOf(apple.id)).clientSecretSealed).toBeNull();

    const audit = JSON.stringify(await t.svc.database.db.selectFrom('auditEvents').selectAll().execute());
    expect(audit).not.toContain(TEST_OIDC_CLIENT_SECRET);
    expect(audit).not.toContain(keyBody);
  });

  it('a sealed secret opens only in its own row', async () => {
    const a = await t.svc.admin.createOidcConnectionAsync(oidcConnectionBody('GitHub'));
    const b = await t.svc.admin.createOidcConnectionAsync(
      oidcConnectionBody('GitHub', { clientSecret: 'other-secret' }),
    );
    const { clientSecretSealed } = await rowOf(a.id);
    await t.svc.database.db
      .updateTable('oidcConnections')
      .set({ clientSecretSealed })
      .where('id', '=', b.id)
      .execute();
    const copied = await t.svc.oidcConnections.findEnabled(b.id);
    expect(() => copied?.secrets()).toThrow();
  });

  it('findEnabled and listEnabled give the resolved profile and, on request, the decrypted secrets', async () => {
    const { admin, oidcConnections } = t.svc;
    const github = await admin.createOidcConnectionAsync(
      oidcConnectionBody('GitHub', { tokenEndpoint: 'http://127.0.0.1:4010/login/oauth/access_token' }),
    );
    t.clock.advance(1000);
    const apple = await admin.createOidcConnectionAsync(
      oidcConnectionBody('Apple', { applePrivateKeyPem: appleKey }),
    );
    const off = await admin.createOidcConnectionAsync(oidcConnectionBody('Google', { enabled: false }));

    const found = await oidcConnections.findEnabled(github.id);
    expect(found).toMatchObject({
      id: github.id,
      providerType: 'GitHub',
      clientId: 'github-client',
      profile: {
        protocol: 'oauth_profile',
        tokenEndpoint: 'http://127.0.0.1:4010/login/oauth/access_token',
        userInfoEndpoint: 'https://api.github.com/user',
      },
    });
    expect(found?.secrets()).toEqual({ clientSecret: TEST_OIDC_CLIENT_SECRET, applePrivateKeyPem: null });
    // Serialized by mistake, a connection carries no secret.
    expect(JSON.stringify(found)).not.toContain(TEST_OIDC_CLIENT_SECRET);

    const appleFound = await oidcConnections.findEnabled(apple.id);
    expect(appleFound?.profile.apple).toEqual({ teamId: 'TEAM123456', keyId: 'KEY1234567' });
    expect(appleFound?.secrets()).toEqual({ clientSecret: null, applePrivateKeyPem: appleKey.trim() });

    expect(await oidcConnections.findEnabled(off.id)).toBeUndefined();
    expect(await oidcConnections.findEnabled('oidc_unknown')).toBeUndefined();
    const enabled = (await oidcConnections.listEnabled()).map((connection) => connection.id);
    expect(enabled).toEqual(expect.arrayContaining([github.id, apple.id]));
    expect(enabled).not.toContain(off.id);
    // Oldest first: the order operators added them.
    expect(enabled.indexOf(github.id)).toBeLessThan(enabled.indexOf(apple.id));
  });

  it('a connection of an organization needs that organization (404), and its events name it', async () => {
    const organization = await t.svc.admin.createOrganizationAsync({ name: 'Acme' });
    const missing = await rejection(
      t.svc.admin.createOidcConnectionAsync(oidcConnectionBody('Google', { organizationId: 'org_missing' })),
    );
    expect(missing).toBeInstanceOf(SvcNotFoundError);
    const created = await t.svc.admin.createOidcConnectionAsync(
      oidcConnectionBody('Google', { organizationId: organization.id }),
    );
    expect(created.organizationId).toBe(organization.id);
    const event = await t.svc.database.db
      .selectFrom('auditEvents')
      .selectAll()
      .where('kind', '=', 'admin.oidc_connection.created')
      .where('organizationId', '=', organization.id)
      .executeTakeFirst();
    expect(event?.actorType).toBe('system');
  });
});

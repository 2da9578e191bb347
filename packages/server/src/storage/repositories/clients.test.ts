import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { sha256Hex } from '../../kernel/crypto.js';
import { useMigratedDatabase, describeEachDatabase } from '../../test-support/databases.js';
import { clientRecord } from '../../test-support/client-record.js';
import { clientRepository } from './clients.js';
import { grantableScopesSource } from './grantable-scopes.js';

describeEachDatabase('client storage: look-up by secret hash (migration 0032)', (kind) => {
  const handle = useMigratedDatabase(kind);
  beforeAll(async () => {
    const clients = clientRepository(handle.db);
    await clients.insertIfClientIdFree(clientRecord({ id: 'cli_public', clientId: 'public-app' }));
    await clients.insertIfClientIdFree(
      clientRecord({
        id: 'cli_backend',
        clientId: 'backend',
        tokenEndpointAuthMethod: 'client_secret_post',
        clientSecretHash: sha256Hex('the-backend-secret'),
      }),
    );
  });

  it('finds the confidential client whose secret it is, and nothing for any other value', async () => {
    const clients = clientRepository(handle.db);
    expect(await clients.findBySecretHash(sha256Hex('the-backend-secret'))).toMatchObject({
      clientId: 'backend',
      tokenEndpointAuthMethod: 'client_secret_post',
    });
    expect(await clients.findBySecretHash(sha256Hex('a-guess'))).toBeUndefined();
    // A public client has no secret: a hash never finds it.
    expect(await clients.findBySecretHash('')).toBeUndefined();
  });
});

describeEachDatabase('client storage: dynamic registrations (migration 0033)', (kind) => {
  const handle = useMigratedDatabase(kind);
  const registration = {
    method: 'dynamic' as const,
    document: null,
    firstUsedAt: null,
    clientUri: 'https://notes.example',
    logoUri: null,
    softwareId: 'notes-cli',
    softwareVersion: '1.0.0',
  };
  beforeAll(async () => {
    const clients = clientRepository(handle.db);
    await clients.insertIfClientIdFree(
      clientRecord({ id: 'cli_operator', clientId: 'operator-made', allowedScopes: ['openid', 'orders'] }),
    );
    await clients.insertIfClientIdFree(
      clientRecord({
        id: 'cli_registered',
        clientId: 'dcr_registered',
        isFirstParty: false,
        allowedScopes: ['openid', 'anything-it-asked-for'],
        registration,
      }),
    );
  });

  it('reads back what a registered client said of itself, and null for an operator-made client', async () => {
    const clients = clientRepository(handle.db);
    expect((await clients.findByClientId('dcr_registered'))?.registration).toEqual(registration);
    expect((await clients.findById('cli_registered'))?.registration).toEqual(registration);
    expect((await clients.findByClientId('operator-made'))?.registration).toBeNull();
    const listed = await clients.list({ limit: 10 });
    expect(listed.data.map((client) => [client.clientId, client.registration?.softwareId ?? null])).toEqual(
      expect.arrayContaining([
        ['dcr_registered', 'notes-cli'],
        ['operator-made', null],
      ]),
    );
  });

  it('lists only the self-registered or only the operator-made clients when asked', async () => {
    const clients = clientRepository(handle.db);
    const ids = async (registration: 'dynamic' | 'operator') =>
      (await clients.list({ limit: 10, registration })).data.map((client) => client.clientId);
    expect(await ids('dynamic')).toEqual(['dcr_registered']);
    expect(await ids('operator')).toEqual(['operator-made']);
  });

  it("leaves registered clients' scopes out of what discovery advertises", async () => {
    const lists = await grantableScopesSource(handle.db).allowedScopeLists();
    expect(lists.flat()).toContain('orders');
    expect(lists.flat()).not.toContain('anything-it-asked-for');
  });
});

describeEachDatabase('client storage: metadata-document clients (migration 0034)', (kind) => {
  const handle = useMigratedDatabase(kind);
  const documentUrl = 'https://app.example/oauth/client.json';
  const described = (fetchedAt: number) => ({
    method: 'metadata_document' as const,
    clientUri: 'https://app.example',
    logoUri: null,
    softwareId: null,
    softwareVersion: null,
    document: { fetchedAt, freshUntil: fetchedAt + 3_600_000 },
    firstUsedAt: null,
  });
  beforeAll(async () => {
    const clients = clientRepository(handle.db);
    await clients.insertIfClientIdFree(clientRecord({ id: 'cli_op', clientId: 'op' }));
    await clients.insertIfClientIdFree(
      clientRecord({
        id: 'cli_dcr',
        clientId: 'dcr_one',
        registration: { ...described(0), method: 'dynamic', document: null },
      }),
    );
    await clients.insertIfClientIdFree(
      clientRecord({ id: 'cli_doc', clientId: documentUrl, registration: described(1_000) }),
    );
    // A registration a node of the previous release stored: JSON without a method, no method column.
    await clients.insertIfClientIdFree(clientRecord({ id: 'cli_old', clientId: 'dcr_old' }));
    await sql`update clients set registration_json = ${'{"clientUri":null}'} where client_id = 'dcr_old'`.execute(
      handle.db,
    );
  });

  it('reads back the document times, and a registration without a method as dynamic', async () => {
    const clients = clientRepository(handle.db);
    expect((await clients.findByClientId(documentUrl))?.registration).toEqual(described(1_000));
    expect((await clients.findByClientId('dcr_old'))?.registration).toMatchObject({
      method: 'dynamic',
      document: null,
    });
  });

  it('lists the clients of one method, counting an old registration as dynamic', async () => {
    const clients = clientRepository(handle.db);
    const ids = async (registration: 'dynamic' | 'metadata_document' | 'operator') =>
      (await clients.list({ limit: 10, registration })).data.map((client) => client.clientId).sort();
    expect(await ids('metadata_document')).toEqual([documentUrl]);
    expect(await ids('dynamic')).toEqual(['dcr_old', 'dcr_one']);
    expect(await ids('operator')).toEqual(['op']);
  });

  it('stores a new fetch of the document, and leaves the registration alone when a change does not name it', async () => {
    const clients = clientRepository(handle.db);
    await clients.update(documentUrl, { registration: described(5_000), name: 'Renamed' }, 5_000);
    expect((await clients.findByClientId(documentUrl))?.registration?.document?.fetchedAt).toBe(5_000);
    await clients.update(documentUrl, { active: false }, 6_000);
    const stored = await clients.findByClientId(documentUrl);
    expect(stored).toMatchObject({ name: 'Renamed', active: false });
    expect(stored?.registration).toEqual(described(5_000));
  });
});

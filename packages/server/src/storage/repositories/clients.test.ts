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

import { beforeAll, expect, it } from 'vitest';
import { sha256Hex } from '../../kernel/crypto.js';
import { useMigratedDatabase, describeEachDatabase } from '../../test-support/databases.js';
import { clientRecord } from '../../test-support/client-record.js';
import { clientRepository } from './clients.js';

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

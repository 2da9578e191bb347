import { OPEN_ACCESS, type ClientRecord } from '../directory/repository.js';
import { sha256Hex } from '../kernel/crypto.js';

/** The secret of the confidential clients built by `clientRecord({ tokenEndpointAuthMethod: … })`. */
export const TEST_CLIENT_SECRET = 'test-client-secret-0123456789abcdefghijklmnop';

/**
 * An in-memory client for pure unit tests: a public first-party web client by default. A confidential
 * auth method brings the hash of TEST_CLIENT_SECRET unless `clientSecretHash` is given.
 */
export function clientRecord(overrides: Partial<ClientRecord> = {}): ClientRecord {
  const method = overrides.tokenEndpointAuthMethod ?? 'none';
  return {
    id: 'cli_test',
    clientId: 'web-app',
    name: 'Web app',
    audience: 'https://api.example.com',
    redirectUris: ['https://app.example.com/callback'],
    postLogoutRedirectUris: [],
    isFirstParty: true,
    allowedScopes: ['openid', 'profile', 'email'],
    allowedResources: [],
    tokenEndpointAuthMethod: method,
    clientSecretHash: method === 'none' ? null : sha256Hex(TEST_CLIENT_SECRET),
    allowDeviceAuthorization: false,
    allowClientCredentials: false,
    active: true,
    access: OPEN_ACCESS,
    createdAt: 0,
    updatedAt: 0,
    registration: null,
    ...overrides,
  };
}

/** A findClient over a fixed list, as the OAuth parsers take it; records the ids looked up. */
export function clientFinder(...clients: ClientRecord[]): {
  findClient(clientId: string): Promise<ClientRecord | undefined>;
  readonly lookups: string[];
} {
  const lookups: string[] = [];
  return {
    lookups,
    findClient(clientId) {
      lookups.push(clientId);
      return Promise.resolve(clients.find((client) => client.clientId === clientId));
    },
  };
}

import type { ClientListInput, CreateClientInput, Page, TokenEndpointAuthMethod } from '@svc/contract';
import { sha256Hex } from '../kernel/crypto.js';
import { SvcConflictError, SvcValidationError } from '../kernel/errors.js';
import { actorFields, type AdminActor } from '../audit/actor.js';
import type { DirectoryDeps } from './deps.js';
import { OPEN_ACCESS, type ClientRecord } from './repository.js';

/** A created client and, for a confidential client, its secret in clear: shown once, never stored. */
export interface CreatedClientResult {
  readonly client: ClientRecord;
  readonly clientSecret?: string;
}

/**
 * The client credentials grant needs a client that can authenticate: refused (400) for a public client,
 * whether it is being created or updated.
 */
export function assertClientCredentialsAllowed(
  allowClientCredentials: boolean,
  method: TokenEndpointAuthMethod,
): void {
  if (allowClientCredentials && method === 'none') {
    throw new SvcValidationError(
      'allowClientCredentials requires a confidential client: set tokenEndpointAuthMethod to client_secret_basic or client_secret_post.',
      [{ path: 'allowClientCredentials', message: 'requires a confidential client' }],
    );
  }
}

/** Registers OAuth clients (the operator path; dynamic registration is a capability of its own). */
export class ClientService {
  readonly #deps: DirectoryDeps & { readonly onClientsChanged?: (() => void) | undefined };

  constructor(deps: DirectoryDeps & { readonly onClientsChanged?: (() => void) | undefined }) {
    this.#deps = deps;
  }

  /**
   * Creates a client. The clientId is unique (409). A confidential client (token endpoint auth method
   * other than `none`) gets a 256-bit generated secret, stored only as its SHA-256 hash and returned
   * here once. The client credentials grant needs a client that can authenticate, so it is refused
   * for public clients (400).
   */
  async create(input: CreateClientInput, actor?: AdminActor): Promise<CreatedClientResult> {
    const confidential = input.tokenEndpointAuthMethod !== 'none';
    assertClientCredentialsAllowed(input.allowClientCredentials, input.tokenEndpointAuthMethod);
    const clientSecret = confidential ? this.#deps.ids.secret() : undefined;
    const now = this.#deps.clock.now();
    const client: ClientRecord = {
      id: this.#deps.ids.id('cli'),
      clientId: input.clientId,
      name: input.name,
      audience: input.audience,
      redirectUris: input.redirectUris,
      postLogoutRedirectUris: input.postLogoutRedirectUris,
      isFirstParty: input.isFirstParty,
      allowedScopes: input.allowedScopes,
      allowedResources: input.allowedResources,
      tokenEndpointAuthMethod: input.tokenEndpointAuthMethod,
      clientSecretHash: clientSecret === undefined ? null : sha256Hex(clientSecret),
      allowDeviceAuthorization: input.allowDeviceAuthorization,
      allowClientCredentials: input.allowClientCredentials,
      active: true,
      access: OPEN_ACCESS,
      createdAt: now,
      updatedAt: now,
      registration: null,
    };
    if (!(await this.#deps.repositories.clients.insertIfClientIdFree(client))) {
      throw new SvcConflictError(`The clientId '${input.clientId}' is already registered.`);
    }
    await this.#deps.audit.record({
      kind: 'admin.client.created',
      ...actorFields(actor),
      clientId: client.clientId,
      data: {
        name: client.name,
        isFirstParty: client.isFirstParty,
        tokenEndpointAuthMethod: client.tokenEndpointAuthMethod,
        allowedScopes: client.allowedScopes,
      },
    });
    // Discovery advertises the union of allowed scopes; tell it that the set may have changed.
    this.#deps.onClientsChanged?.();
    return clientSecret === undefined ? { client } : { client, clientSecret };
  }

  findByClientId(clientId: string): Promise<ClientRecord | undefined> {
    return this.#deps.repositories.clients.findByClientId(clientId);
  }

  /** Newest first, narrowed by every given filter; `nextCursor` is null on the last page. */
  list(input: ClientListInput): Promise<Page<ClientRecord>> {
    const { limit, cursor, registration, query, active } = input;
    return this.#deps.repositories.clients.list({ limit, cursor, registration, search: query, active });
  }
}

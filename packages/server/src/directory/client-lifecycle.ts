import { DOCUMENT_DECIDED_CLIENT_FIELDS, type UpdateClientInput } from '@svc/contract';
import { sha256Hex } from '../kernel/crypto.js';
import { SvcValidationError } from '../kernel/errors.js';
import { assertClientCredentialsAllowed, type CreatedClientResult } from './client-service.js';
import { recordNotFound } from './errors.js';
import { actorFields, type AdminActor } from '../audit/actor.js';
import type { DirectoryLifecycleDeps } from './deps.js';
import { applyRecordUpdate, differences, existingRecord } from './record-lifecycle.js';
import type { ClientChanges, ClientRecord } from './repository.js';

export interface ClientLifecycleDeps extends DirectoryLifecycleDeps {
  /** Called after a change of the allowed scopes or of `active` (discovery caches their union). */
  readonly onClientsChanged?: (() => void) | undefined;
}

/** An operator's changes to a client: its registration, its secret, and deactivation. */
export class ClientLifecycle {
  readonly #deps: ClientLifecycleDeps;

  constructor(deps: ClientLifecycleDeps) {
    this.#deps = deps;
  }

  /**
   * Applies the given fields (the clientId never changes). The auth method may move between the two
   * secret methods, keeping the secret; a public client cannot become confidential or the reverse (400):
   * whether an application can keep a secret is a property of the application (RFC 6749 §2.1), so it
   * is registered anew. The client credentials grant stays refused for public clients (400).
   * `active: false` revokes every token session of the client; it then gets `invalid_client` everywhere.
   * What a client's metadata document decides cannot be changed here (400): the next fetch would undo it.
   */
  async update(clientId: string, input: UpdateClientInput, actor?: AdminActor): Promise<ClientRecord> {
    const current = await this.#find(clientId);
    const method = input.tokenEndpointAuthMethod ?? current.tokenEndpointAuthMethod;
    if ((method === 'none') !== (current.tokenEndpointAuthMethod === 'none')) {
      throw new SvcValidationError(
        'tokenEndpointAuthMethod cannot turn a public client into a confidential one or the reverse; register a new client.',
        [{ path: 'tokenEndpointAuthMethod', message: 'cannot change between none and a secret method' }],
      );
    }
    assertClientCredentialsAllowed(input.allowClientCredentials ?? current.allowClientCredentials, method);
    const changes: ClientChanges = differences(current, input);
    assertNotFromDocument(current, changes);
    const { sessions, clock, repositories } = this.#deps;
    const updated = await applyRecordUpdate(
      this.#deps,
      {
        record: 'client',
        id: clientId,
        current,
        changes,
        write: (fields) => repositories.clients.update(clientId, fields, clock.now()),
        subject: () => ({ clientId }),
        endSessions: async () => ({
          sessionsRevoked: await sessions.revokeTokenSessions({ clientId }, 'client_deactivated'),
        }),
      },
      actor,
    );
    if (changes.allowedScopes !== undefined || changes.active !== undefined) this.#deps.onClientsChanged?.();
    return updated;
  }

  /**
   * A new 256-bit secret for a confidential client (400 for a public one), returned here once and stored
   * as its SHA-256 like at creation; the old secret stops working at once on every node, since client
   * authentication reads the stored hash on every request. Audited as `admin.client.secret_rotated`.
   */
  async rotateSecret(clientId: string, actor?: AdminActor): Promise<Required<CreatedClientResult>> {
    const client = await this.#find(clientId);
    if (client.tokenEndpointAuthMethod === 'none') {
      throw new SvcValidationError('A public client has no secret to rotate.', [
        { path: 'clientId', message: 'the client is public (tokenEndpointAuthMethod none)' },
      ]);
    }
    const clientSecret = this.#deps.ids.secret();
    const updated = await this.#deps.repositories.clients.update(
      clientId,
      { clientSecretHash: sha256Hex(clientSecret) },
      this.#deps.clock.now(),
    );
    if (updated === undefined) throw recordNotFound('Client', clientId);
    await this.#deps.audit.record({ kind: 'admin.client.secret_rotated', ...actorFields(actor), clientId });
    return { client: updated, clientSecret };
  }

  #find(clientId: string): Promise<ClientRecord> {
    return existingRecord('client', clientId, (key) => this.#deps.repositories.clients.findByClientId(key));
  }
}

/** Refuses a change an operator would lose at the client's next document fetch. */
function assertNotFromDocument(current: ClientRecord, changes: ClientChanges): void {
  if (current.registration?.method !== 'metadata_document') return;
  const fromDocument = DOCUMENT_DECIDED_CLIENT_FIELDS.filter((field) => changes[field] !== undefined);
  if (fromDocument.length === 0) return;
  throw new SvcValidationError(
    `${fromDocument.join(', ')} of this client come from its metadata document at ${current.clientId}: change the document (Svc fetches it again once its copy is stale), or deactivate the client.`,
    fromDocument.map((field) => ({ path: field, message: 'set by the client metadata document' })),
  );
}

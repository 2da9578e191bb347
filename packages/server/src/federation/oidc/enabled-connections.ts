import type { OidcProviderType } from '@svc/contract';
import { openSecrets, type OidcConnectionSecrets, type SecretSealer } from './connection-secrets.js';
import { resolveProviderProfile, type OidcProviderProfile } from './provider-defaults.js';
import type { OidcConnectionRecord, OidcConnectionRepository } from './repository.js';

/** An enabled connection as sign-in uses it: who it is, where it sends users back, and its provider profile. */
export interface OidcConnection {
  readonly id: string;
  readonly providerType: OidcProviderType;
  readonly displayName: string;
  /** The provider's client id (Apple: the services id). */
  readonly clientId: string;
  /** The exact callback URIs this connection may send to the provider. */
  readonly allowedCallbackUris: readonly string[];
  /** Set when the connection belongs to one organization. */
  readonly organizationId: string | null;
  readonly profile: OidcProviderProfile;
  /**
   * The decrypted secret material. Opened on each call, and a method rather than a field, so that a
   * connection serialized or logged by mistake never carries a secret.
   */
  secrets(): OidcConnectionSecrets;
}

/** What an id Svc generates can look like: printable ASCII, bounded. */
const CONNECTION_ID = /^[\x21-\x7e]{1,200}$/;

export interface OidcConnectionsDeps {
  readonly repository: Pick<OidcConnectionRepository, 'findById' | 'listEnabled'>;
  readonly secrets: SecretSealer;
}

/**
 * The enabled connections, for the sign-in through them (provider lists, start, callback). A disabled
 * or unknown connection is not found. Read from the database on every call, so that disabling a
 * connection holds on every node at once.
 */
export class OidcConnections {
  readonly #deps: OidcConnectionsDeps;

  constructor(deps: OidcConnectionsDeps) {
    this.#deps = deps;
  }

  /** The connection if it exists and is enabled. */
  async findEnabled(connectionId: string): Promise<OidcConnection | undefined> {
    // A URL segment or body field of any shape: one that no id has (NUL, spaces…) is no connection.
    if (!CONNECTION_ID.test(connectionId)) return undefined;
    const record = await this.#deps.repository.findById(connectionId);
    return record?.enabled === true ? this.#connection(record) : undefined;
  }

  /** Every enabled connection, oldest first (the order operators added them). */
  async listEnabled(): Promise<OidcConnection[]> {
    return (await this.#deps.repository.listEnabled()).map((record) => this.#connection(record));
  }

  #connection(record: OidcConnectionRecord): OidcConnection {
    const box = this.#deps.secrets;
    return {
      id: record.id,
      providerType: record.providerType,
      displayName: record.displayName,
      clientId: record.clientId,
      allowedCallbackUris: record.allowedCallbackUris,
      organizationId: record.organizationId,
      profile: resolveProviderProfile(record),
      secrets: () => openSecrets(box, record),
    };
  }
}

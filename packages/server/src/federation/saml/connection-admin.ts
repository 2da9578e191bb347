import type {
  ConnectionListInput,
  CreateSsoConnectionInput,
  ImportSsoMetadataInput,
  Page,
  PageQuery,
} from '@svc/contract';
import { actorFields, type AdminActor } from '../../audit/actor.js';
import type { AuditLog } from '../../audit/audit-log.js';
import type { Clock } from '../../kernel/clock.js';
import { SvcConflictError, SvcNotFoundError } from '../../kernel/errors.js';
import type { Ids } from '../../kernel/ids.js';
import { parseIdpMetadata } from './idp-metadata.js';
import type {
  ListedSsoConnection,
  SsoConnectionChanges,
  SsoConnectionRecord,
  SsoConnectionRepository,
} from './repository.js';

export interface SsoConnectionAdminDeps {
  readonly repository: SsoConnectionRepository;
  /** Whether the organization a connection belongs to exists. */
  readonly organizationExists: (organizationId: string) => Promise<boolean>;
  /** PublicOrigin + auth base: the SP entity id and ACS URL of a new connection hang under it. */
  readonly issuer: string;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}

/**
 * The SP side of a connection, as the IdP is configured with it (docs/reference/federation.md "A draft first,
 * metadata import enables").
 */
export function spEndpoints(issuer: string, connectionId: string): { spEntityId: string; acsUrl: string } {
  // The entity id is the SP metadata's URL, so that an IdP that fetches metadata by entity id finds it.
  return {
    spEntityId: `${issuer}/saml/metadata/${connectionId}`,
    acsUrl: `${issuer}/saml/acs/${connectionId}`,
  };
}

/**
 * The operators' SAML SSO connections (docs/reference/federation.md "A draft first, metadata import
 * enables"): a draft is created disabled with its SP entity id and ACS URL; importing the IdP's metadata
 * fills in the IdP and enables it unless told not to; enable and disable toggle it, and a connection without
 * metadata cannot be enabled (409). Audited as `admin.sso_connection.created`, `.metadata_imported`,
 * `.enabled` and `.disabled`.
 */
export class SsoConnectionAdmin {
  readonly #deps: SsoConnectionAdminDeps;

  constructor(deps: SsoConnectionAdminDeps) {
    this.#deps = deps;
  }

  /** CreateSsoConnectionDraftAsync: a disabled draft of an existing organization (404 otherwise). */
  async createDraft(input: CreateSsoConnectionInput, actor?: AdminActor): Promise<SsoConnectionRecord> {
    const { ids, clock, repository, issuer } = this.#deps;
    await this.#requireOrganization(input.organizationId);
    const id = ids.id('sso');
    const now = clock.now();
    const record: SsoConnectionRecord = {
      id,
      organizationId: input.organizationId,
      displayName: input.displayName,
      primaryDomain: input.primaryDomain,
      autoProvisionUsers: input.autoProvisionUsers,
      autoLinkByEmail: input.autoLinkByEmail,
      enabled: false,
      ...spEndpoints(issuer, id),
      idpEntityId: null,
      idpSsoUrl: null,
      idpSigningCertificates: [],
      metadataImportedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    await repository.insert(record);
    await this.#record('created', record, actor, { displayName: record.displayName });
    return record;
  }

  /** The connection, or a 404. */
  async get(id: string): Promise<SsoConnectionRecord> {
    const found = await this.#deps.repository.findById(id);
    if (found === undefined) throw new SvcNotFoundError(`SSO connection '${id}' was not found.`);
    return found;
  }

  /** The organization's connections, newest first (404 for an unknown organization). */
  async listForOrganization(organizationId: string, query: PageQuery): Promise<Page<SsoConnectionRecord>> {
    await this.#requireOrganization(organizationId);
    return this.#deps.repository.listForOrganization(organizationId, query);
  }

  /** Every organization's connections, newest first, with their organization (an unknown one lists none). */
  list(query: ConnectionListInput): Promise<Page<ListedSsoConnection>> {
    return this.#deps.repository.list(query);
  }

  /**
   * ImportSsoMetadataAsync: replaces the IdP's entity id, SSO URL and signing certificates (a rollover
   * is imported as metadata listing both certificates, and finished by importing it with the new one
   * only). Enables the connection unless `enableConnection` is false, which leaves it as it is. The
   * audit event says where the XML came from: given (`source: 'xml'`) or fetched from `fetchedFrom`
   * (`source: 'url'` and the URL's host, never its path or query).
   */
  async importMetadata(
    id: string,
    input: ImportSsoMetadataInput,
    actor?: AdminActor,
    fetchedFrom?: URL,
  ): Promise<SsoConnectionRecord> {
    const current = await this.get(id);
    const metadata = parseIdpMetadata(input.metadataXml);
    const enable = input.enableConnection !== false;
    const updated = await this.#write(id, {
      idpEntityId: metadata.entityId,
      idpSsoUrl: metadata.ssoUrl,
      idpSigningCertificates: metadata.signingCertificates,
      metadataImportedAt: this.#deps.clock.now(),
      ...(enable ? { enabled: true } : {}),
    });
    await this.#record('metadata_imported', updated, actor, {
      idpEntityId: metadata.entityId,
      certificates: metadata.signingCertificates.length,
      ...(fetchedFrom === undefined ? { source: 'xml' } : { source: 'url', metadataHost: fetchedFrom.host }),
    });
    if (updated.enabled !== current.enabled) await this.#record('enabled', updated, actor);
    return updated;
  }

  /** Enables or disables the connection (idempotent); a draft without metadata cannot be enabled (409). */
  async setEnabled(id: string, enabled: boolean, actor?: AdminActor): Promise<SsoConnectionRecord> {
    const current = await this.get(id);
    if (current.enabled === enabled) return current;
    if (enabled && current.idpEntityId === null) {
      throw new SvcConflictError(
        `SSO connection '${id}' has no identity provider metadata yet: import it first (POST /sso-connections/${id}/metadata).`,
      );
    }
    const updated = await this.#write(id, { enabled });
    await this.#record(enabled ? 'enabled' : 'disabled', updated, actor);
    return updated;
  }

  async #requireOrganization(organizationId: string): Promise<void> {
    if (!(await this.#deps.organizationExists(organizationId))) {
      throw new SvcNotFoundError(`Organization '${organizationId}' was not found.`);
    }
  }

  async #write(id: string, changes: SsoConnectionChanges): Promise<SsoConnectionRecord> {
    const updated = await this.#deps.repository.update(id, changes, this.#deps.clock.now());
    if (updated === undefined) throw new SvcNotFoundError(`SSO connection '${id}' was not found.`);
    return updated;
  }

  #record(
    suffix: 'created' | 'metadata_imported' | 'enabled' | 'disabled',
    connection: SsoConnectionRecord,
    actor: AdminActor | undefined,
    data: Readonly<Record<string, unknown>> = {},
  ): Promise<void> {
    return this.#deps.audit.record({
      kind: `admin.sso_connection.${suffix}`,
      ...actorFields(actor),
      organizationId: connection.organizationId,
      data: { connectionId: connection.id, ...data },
    });
  }
}

import {
  connectionListQuerySchema,
  createSsoConnectionRequestSchema,
  importSsoMetadataBodySchema,
  pageQuerySchema,
  ssoConnectionPathSchema,
  ssoOrganizationPathSchema,
  type ConnectionListQuery,
  type CreateSsoConnectionRequest,
  type Page,
  type SvcPageRequest,
  type SvcSsoConnection,
  type SvcSsoConnectionListItem,
} from '@svc/contract';
import type { AdminActor } from '../../audit/actor.js';
import type { SsoConnectionAdmin } from '../../federation/saml/connection-admin.js';
import { toSvcSsoConnection } from '../../federation/saml/views.js';
import { validate } from '../../kernel/validation.js';

export interface SvcAdminSsoConnectionsDeps {
  /** SAML SSO connections (validated and audited there). */
  readonly ssoConnections: SsoConnectionAdmin;
}

/**
 * The SAML SSO connection operations of SvcAdminService (docs/reference/federation.md "SAML
 * connections"; docs/reference/federation.md "SAML connections"). Inputs are
 * validated with the contract schemas of the HTTP routes (400); an unknown organization or connection
 * is a 404; enabling a connection without metadata a 409.
 */
export class SvcAdminSsoConnections {
  readonly #sso: SsoConnectionAdmin;

  constructor(deps: SvcAdminSsoConnectionsDeps) {
    this.#sso = deps.ssoConnections;
  }

  /**
   * CreateSsoConnectionDraftAsync: a disabled draft with its `spEntityId` and `acsUrl`
   * (`{PublicOrigin}/svc/auth/saml/acs/{connectionId}`), for the IdP to be configured with.
   */
  async createSsoConnectionDraftAsync(
    request: CreateSsoConnectionRequest,
    actor?: AdminActor,
  ): Promise<SvcSsoConnection> {
    const input = validate(createSsoConnectionRequestSchema, request, 'SSO connection');
    return toSvcSsoConnection(await this.#sso.createDraft(input, actor));
  }

  /**
   * ImportSsoMetadataAsync: reads the IdP's SAML metadata (entity id, HTTP-Redirect SSO URL, one or two
   * signing certificates; 400 saying what is missing) and enables the connection, unless
   * `enableConnection` is false, which leaves it enabled or disabled as it was.
   */
  async importSsoMetadataAsync(
    connectionId: string,
    metadataXml: string,
    enableConnection?: boolean,
    actor?: AdminActor,
  ): Promise<SvcSsoConnection> {
    const { id } = validate(ssoConnectionPathSchema, { id: connectionId }, 'connection id');
    const input = validate(
      importSsoMetadataBodySchema,
      enableConnection === undefined ? { metadataXml } : { metadataXml, enableConnection },
      'SSO metadata',
    );
    return toSvcSsoConnection(await this.#sso.importMetadata(id, input, actor));
  }

  /** One SSO connection; a 404 for an unknown id. */
  async getSsoConnectionAsync(connectionId: string): Promise<SvcSsoConnection> {
    const { id } = validate(ssoConnectionPathSchema, { id: connectionId }, 'connection id');
    return toSvcSsoConnection(await this.#sso.get(id));
  }

  /** The organization's SSO connections, newest first; a 404 for an unknown organization. */
  async listSsoConnectionsAsync(
    organizationId: string,
    request: SvcPageRequest = {},
  ): Promise<Page<SvcSsoConnection>> {
    const path = validate(ssoOrganizationPathSchema, { organizationId }, 'organization id');
    const page = await this.#sso.listForOrganization(
      path.organizationId,
      validate(pageQuerySchema, request, 'page request'),
    );
    return { data: page.data.map(toSvcSsoConnection), nextCursor: page.nextCursor };
  }

  /**
   * Every organization's SSO connections, newest first, each with its organization `{ id, name }`;
   * `organizationId` and `enabled` narrow the list (an unknown organization lists none).
   */
  async listAllSsoConnectionsAsync(
    request: ConnectionListQuery = {},
  ): Promise<Page<SvcSsoConnectionListItem>> {
    const page = await this.#sso.list(validate(connectionListQuerySchema, request, 'connection list query'));
    return {
      data: page.data.map(({ connection, organization }) => ({
        ...toSvcSsoConnection(connection),
        organization,
      })),
      nextCursor: page.nextCursor,
    };
  }

  /** Enables an SSO connection (idempotent); 409 while it has no metadata. */
  enableSsoConnectionAsync(connectionId: string, actor?: AdminActor): Promise<SvcSsoConnection> {
    return this.#setEnabled(connectionId, true, actor);
  }

  /** Disables an SSO connection (idempotent): its sign-ins are refused on every node at once. */
  disableSsoConnectionAsync(connectionId: string, actor?: AdminActor): Promise<SvcSsoConnection> {
    return this.#setEnabled(connectionId, false, actor);
  }

  async #setEnabled(
    connectionId: string,
    enabled: boolean,
    actor: AdminActor | undefined,
  ): Promise<SvcSsoConnection> {
    const { id } = validate(ssoConnectionPathSchema, { id: connectionId }, 'connection id');
    return toSvcSsoConnection(await this.#sso.setEnabled(id, enabled, actor));
  }
}

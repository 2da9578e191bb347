import type { ConnectionListInput, OrganizationRef, Page, PageQuery } from '@svc/contract';

/** A SAML connection's fields (docs/reference/federation.md "SAML connections"), as stored. */
export interface SsoConnectionSettings {
  readonly organizationId: string;
  readonly displayName: string;
  readonly primaryDomain: string | null;
  readonly autoProvisionUsers: boolean;
  readonly autoLinkByEmail: boolean;
}

/**
 * A stored SAML SSO connection. `spEntityId` and `acsUrl` are fixed when the draft is made (the IdP is
 * configured with them); the IdP fields stay null, and the certificates empty, until metadata is imported.
 */
export interface SsoConnectionRecord extends SsoConnectionSettings {
  readonly id: string;
  readonly enabled: boolean;
  readonly spEntityId: string;
  readonly acsUrl: string;
  readonly idpEntityId: string | null;
  readonly idpSsoUrl: string | null;
  /** PEM certificates: one, or two during a key rollover. */
  readonly idpSigningCertificates: readonly string[];
  readonly metadataImportedAt: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** An entry of the console-wide list: the connection and the organization it belongs to. */
export interface ListedSsoConnection {
  readonly connection: SsoConnectionRecord;
  readonly organization: OrganizationRef;
}

/** What an update writes; an omitted field keeps its value. */
export type SsoConnectionChanges = Partial<
  Pick<
    SsoConnectionRecord,
    'enabled' | 'idpEntityId' | 'idpSsoUrl' | 'idpSigningCertificates' | 'metadataImportedAt'
  >
>;

/** The storage of SSO connections, owned by the federation domain. Times are epoch milliseconds. */
export interface SsoConnectionRepository {
  insert(record: SsoConnectionRecord): Promise<void>;
  findById(id: string): Promise<SsoConnectionRecord | undefined>;
  /** The organization's connections, newest first, keyset on (createdAt, id). */
  listForOrganization(organizationId: string, query: PageQuery): Promise<Page<SsoConnectionRecord>>;
  /** Every organization's connections (or one's, enabled or not), newest first, with their organization. */
  list(query: ConnectionListInput): Promise<Page<ListedSsoConnection>>;
  /** The oldest enabled connection whose primary domain is `domain` (lower case), for home-realm discovery. */
  findEnabledByPrimaryDomain(domain: string): Promise<SsoConnectionRecord | undefined>;
  /**
   * The oldest enabled connection of the oldest organization whose own primary domain is `domain`
   * (lower case), for home-realm discovery when no connection names the domain.
   */
  findEnabledByOrganizationPrimaryDomain(domain: string): Promise<SsoConnectionRecord | undefined>;
  /** The organization's oldest enabled connection (its domain claims send users to it). */
  findEnabledForOrganization(organizationId: string): Promise<SsoConnectionRecord | undefined>;
  /** Applies the changes and sets updatedAt; undefined when the connection does not exist. */
  update(id: string, changes: SsoConnectionChanges, now: number): Promise<SsoConnectionRecord | undefined>;
}

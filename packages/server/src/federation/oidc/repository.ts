import type {
  OidcClaimMappingInput,
  OidcClientAuthMethod,
  OidcProviderType,
  Page,
  PageQuery,
} from '@svc/contract';

/**
 * The settings of an OpenID / social provider connection as the operator configured them: a null
 * endpoint, an empty scope list, a null claim mapping, `useUserInfo` or logo mean the provider's
 * default, which `resolveProviderProfile` (provider-defaults.ts) fills in when the connection is used.
 */
export interface OidcConnectionSettings {
  readonly providerType: OidcProviderType;
  readonly displayName: string;
  readonly clientId: string;
  /** Exact URIs, `{connectionId}` already replaced with the connection's id. */
  readonly allowedCallbackUris: readonly string[];
  /**
   * Custom: as configured; the built-ins: true, GitHub false (docs/reference/federation.md: built-ins ignore
   * it).
   */
  readonly useDiscovery: boolean;
  readonly discoveryUrl: string | null;
  /** Manual Custom only. */
  readonly issuer: string | null;
  readonly authorizationEndpoint: string | null;
  readonly tokenEndpoint: string | null;
  readonly userInfoEndpoint: string | null;
  /** Manual Custom only. */
  readonly jwksUri: string | null;
  /** Microsoft only ('common' unless configured); null for the others. */
  readonly microsoftTenant: string | null;
  readonly scopes: readonly string[];
  readonly claimMapping: OidcClaimMappingInput | null;
  readonly clientAuthMethod: OidcClientAuthMethod;
  readonly useUserInfo: boolean | null;
  readonly appleTeamId: string | null;
  readonly appleKeyId: string | null;
  readonly logoDataUrl: string | null;
  readonly organizationId: string | null;
}

/** Who configures a connection: operators through the API, or the host's code (read-only to the API). */
export type OidcConnectionOwner = 'dashboard' | 'code';

/** A stored connection. Secrets are sealed with the master key (AES-256-GCM), bound to the connection id. */
export interface OidcConnectionRecord extends OidcConnectionSettings {
  readonly id: string;
  readonly clientSecretSealed: string | null;
  readonly applePrivateKeySealed: string | null;
  readonly enabled: boolean;
  readonly owner: OidcConnectionOwner;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** What an update writes; an omitted field keeps its value. The owner never changes. */
export type OidcConnectionChanges = Partial<
  Omit<OidcConnectionRecord, 'id' | 'owner' | 'createdAt' | 'updatedAt'>
>;

/** The storage of OIDC connections, owned by the federation domain. Times are epoch milliseconds. */
export interface OidcConnectionRepository {
  insert(record: OidcConnectionRecord): Promise<void>;
  findById(id: string): Promise<OidcConnectionRecord | undefined>;
  /** Newest first, keyset on (createdAt, id). */
  list(query: PageQuery): Promise<Page<OidcConnectionRecord>>;
  /** The enabled connections, oldest first (the order operators added them, so buttons keep their place). */
  listEnabled(): Promise<OidcConnectionRecord[]>;
  /** Applies the changes and sets updatedAt; undefined when the connection does not exist. */
  update(id: string, changes: OidcConnectionChanges, now: number): Promise<OidcConnectionRecord | undefined>;
  /** Deletes the connection; answers what was deleted, undefined when it did not exist. */
  delete(id: string): Promise<OidcConnectionRecord | undefined>;
}

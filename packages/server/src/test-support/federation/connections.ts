import type { OidcConnection } from '../../federation/oidc/enabled-connections.js';
import { resolveProviderProfile } from '../../federation/oidc/provider-defaults.js';
import type { OidcConnectionSettings } from '../../federation/oidc/repository.js';
import type { Db } from '../../storage/database.js';

/** The settings a test gives; the rest are the defaults of a new connection. */
export type TestConnectionSettings = Partial<OidcConnectionSettings> &
  Pick<OidcConnectionSettings, 'providerType' | 'clientId' | 'allowedCallbackUris'>;

/**
 * An enabled connection as the sign-in gets it from `OidcConnections`, built from settings without the
 * database: the profile is resolved by the same `resolveProviderProfile`.
 */
export function testConnection(
  settings: TestConnectionSettings,
  secrets: { clientSecret?: string | null; applePrivateKeyPem?: string | null } = {},
  id = 'oidc_test',
): OidcConnection {
  const full: OidcConnectionSettings = {
    displayName: settings.providerType,
    useDiscovery: settings.providerType !== 'GitHub',
    discoveryUrl: null,
    issuer: null,
    authorizationEndpoint: null,
    tokenEndpoint: null,
    userInfoEndpoint: null,
    jwksUri: null,
    microsoftTenant: settings.providerType === 'Microsoft' ? 'common' : null,
    scopes: [],
    claimMapping: null,
    clientAuthMethod: 'ClientSecretPost',
    useUserInfo: null,
    appleTeamId: null,
    appleKeyId: null,
    logoDataUrl: null,
    organizationId: null,
    ...settings,
  };
  const opened = {
    clientSecret: secrets.clientSecret ?? null,
    applePrivateKeyPem: secrets.applePrivateKeyPem ?? null,
  };
  return {
    id,
    providerType: full.providerType,
    displayName: full.displayName,
    clientId: full.clientId,
    allowedCallbackUris: full.allowedCallbackUris,
    organizationId: full.organizationId,
    profile: resolveProviderProfile(full),
    secrets: () => opened,
  };
}

/**
 * Stores a bare enabled connection row (the tables that reference connections need one); its settings
 * are never read.
 */
export async function insertConnectionRow(
  db: Db,
  id: string,
  providerType: OidcConnectionSettings['providerType'] = 'Custom',
): Promise<void> {
  await db
    .insertInto('oidcConnections')
    .values({
      id,
      providerType,
      displayName: id,
      clientId: 'client',
      clientSecretSealed: null,
      allowedCallbackUrisJson: '[]',
      useDiscovery: 1,
      discoveryUrl: null,
      issuer: null,
      authorizationEndpoint: null,
      tokenEndpoint: null,
      userInfoEndpoint: null,
      jwksUri: null,
      microsoftTenant: null,
      scopesJson: '[]',
      claimMappingJson: null,
      clientAuthMethod: 'ClientSecretPost',
      useUserInfo: null,
      appleTeamId: null,
      appleKeyId: null,
      applePrivateKeySealed: null,
      logoDataUrl: null,
      organizationId: null,
      enabled: 1,
      createdAt: 0,
      updatedAt: 0,
    })
    .execute();
}

/**
 * Stores a bare enabled SSO connection row of an existing organization (the tables that reference SSO
 * connections need one); its settings are never read.
 */
export async function insertSsoConnectionRow(
  db: Db,
  id: string,
  organizationId: string,
  createdAt = 0,
): Promise<void> {
  await db
    .insertInto('ssoConnections')
    .values({
      id,
      organizationId,
      displayName: id,
      primaryDomain: null,
      autoProvisionUsers: 1,
      autoLinkByEmail: 0,
      enabled: 1,
      spEntityId: `https://svc.test/${id}`,
      acsUrl: `https://svc.test/acs/${id}`,
      idpEntityId: null,
      idpSsoUrl: null,
      idpSigningCertificatesJson: '[]',
      metadataImportedAt: null,
      createdAt,
      updatedAt: createdAt,
    })
    .execute();
}

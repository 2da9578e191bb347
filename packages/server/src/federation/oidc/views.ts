import type { SvcLinkedIdentity, SvcOidcConnection } from '@svc/contract';
import { toIso } from '../../kernel/clock.js';
import { resolveProviderProfile } from './provider-defaults.js';
import type { ListedOidcIdentityRecord } from './identity-repository.js';
import type { OidcConnectionRecord } from './repository.js';

/**
 * A connection as operators read it: the settings as configured, whether each secret is set (never the
 * secret, sealed or not), and what the settings resolve to.
 */
export function toSvcOidcConnection(record: OidcConnectionRecord): SvcOidcConnection {
  const { apple: _apple, ...resolved } = resolveProviderProfile(record);
  return {
    id: record.id,
    providerType: record.providerType,
    displayName: record.displayName,
    clientId: record.clientId,
    clientSecretSet: record.clientSecretSealed !== null,
    allowedCallbackUris: [...record.allowedCallbackUris],
    useDiscovery: record.useDiscovery,
    discoveryUrl: record.discoveryUrl,
    issuer: record.issuer,
    authorizationEndpoint: record.authorizationEndpoint,
    tokenEndpoint: record.tokenEndpoint,
    userInfoEndpoint: record.userInfoEndpoint,
    jwksUri: record.jwksUri,
    microsoftTenant: record.microsoftTenant,
    scopes: [...record.scopes],
    claimMapping: record.claimMapping === null ? null : { ...record.claimMapping },
    clientAuthMethod: record.clientAuthMethod,
    useUserInfo: record.useUserInfo,
    appleTeamId: record.appleTeamId,
    appleKeyId: record.appleKeyId,
    applePrivateKeySet: record.applePrivateKeySealed !== null,
    logoDataUrl: record.logoDataUrl,
    organizationId: record.organizationId,
    enabled: record.enabled,
    owner: record.owner,
    createdAt: toIso(record.createdAt),
    updatedAt: toIso(record.updatedAt),
    resolved,
  };
}

/** A linked identity as its account and operators read it. */
export function toSvcLinkedIdentity(record: ListedOidcIdentityRecord): SvcLinkedIdentity {
  return {
    id: record.id,
    connectionId: record.connectionId,
    connection: { id: record.connectionId, ...record.connection },
    subject: record.subject,
    email: record.email,
    emailVerified: record.emailVerified,
    linkedAt: toIso(record.createdAt),
    lastUsedAt: toIso(record.lastUsedAt),
  };
}

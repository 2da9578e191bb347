import {
  OIDC_MAPPED_CLAIMS,
  type OidcClientAuthMethod,
  type OidcMappedClaim,
  type OidcProviderType,
  type SvcOidcConnection,
} from '@svc/contract';
import { lines } from '../../../ui/form.js';
import { OIDC_CALLBACK_URL } from './sso-paths.js';

/** Whether the connection asks the provider's UserInfo endpoint: the provider's default, or decided. */
export type UserInfoChoice = 'default' | 'yes' | 'no';

/** The form's name of a mapped claim's field (`claimEmail`). */
export type ClaimField = `claim${Capitalize<OidcMappedClaim>}`;
export const claimField = (claim: OidcMappedClaim): ClaimField =>
  `claim${claim.charAt(0).toUpperCase()}${claim.slice(1)}` as ClaimField;

/** A connection's settings as the create and edit forms hold them (lists as text). */
export type OidcFormValues = {
  [field: string]: string | boolean;
  providerType: OidcProviderType;
  displayName: string;
  clientId: string;
  clientSecret: string;
  allowedCallbackUris: string;
  scopes: string;
  useDiscovery: boolean;
  discoveryUrl: string;
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  userInfoEndpoint: string;
  jwksUri: string;
  microsoftTenant: string;
  clientAuthMethod: OidcClientAuthMethod;
  useUserInfo: UserInfoChoice;
  appleTeamId: string;
  appleKeyId: string;
  applePrivateKeyPem: string;
  enabled: boolean;
} & Record<ClaimField, string>;

export type OidcField = keyof OidcFormValues & string;

const CLAIM_FIELDS = OIDC_MAPPED_CLAIMS.map(claimField);

/**
 * The fields each provider type takes (docs/reference/federation.md "Fields each provider type
 * requires, refuses and fixes"): only these are sent, so a value typed for another type is never
 * refused for this one. Apple and GitHub have fixed claim mappings; GitHub has no discovery.
 */
const OVERRIDES = ['authorizationEndpoint', 'tokenEndpoint', 'userInfoEndpoint'] as const;
const SECRET_FIELDS = ['clientSecret', 'clientAuthMethod'] as const;
export const PROVIDER_FIELDS: Readonly<Record<OidcProviderType, ReadonlySet<OidcField>>> = {
  Custom: new Set([
    ...SECRET_FIELDS,
    'useDiscovery',
    'discoveryUrl',
    'issuer',
    'jwksUri',
    ...OVERRIDES,
    'useUserInfo',
    ...CLAIM_FIELDS,
  ]),
  Google: new Set([...SECRET_FIELDS, 'discoveryUrl', ...OVERRIDES, 'useUserInfo', ...CLAIM_FIELDS]),
  Microsoft: new Set([
    ...SECRET_FIELDS,
    'microsoftTenant',
    'discoveryUrl',
    ...OVERRIDES,
    'useUserInfo',
    ...CLAIM_FIELDS,
  ]),
  Apple: new Set([
    'appleTeamId',
    'appleKeyId',
    'applePrivateKeyPem',
    'discoveryUrl',
    'authorizationEndpoint',
    'tokenEndpoint',
  ]),
  GitHub: new Set([...SECRET_FIELDS, ...OVERRIDES]),
};

/** What a new connection starts with: discovery, the issuer's callback, the provider's defaults. */
export function newOidcValues(providerType: OidcProviderType): OidcFormValues {
  return {
    providerType,
    displayName: '',
    clientId: '',
    clientSecret: '',
    allowedCallbackUris: OIDC_CALLBACK_URL,
    scopes: '',
    useDiscovery: true,
    discoveryUrl: '',
    issuer: '',
    authorizationEndpoint: '',
    tokenEndpoint: '',
    userInfoEndpoint: '',
    jwksUri: '',
    microsoftTenant: '',
    clientAuthMethod: 'ClientSecretPost',
    useUserInfo: 'default',
    appleTeamId: '',
    appleKeyId: '',
    applePrivateKeyPem: '',
    enabled: true,
    ...(Object.fromEntries(CLAIM_FIELDS.map((name) => [name, ''])) as Record<ClaimField, string>),
  };
}

/** A connection's settings as configured (null: the provider's default), for the edit form; never a secret. */
export function oidcValuesOf(connection: SvcOidcConnection): OidcFormValues {
  const mapping = connection.claimMapping ?? {};
  return {
    ...newOidcValues(connection.providerType),
    displayName: connection.displayName,
    clientId: connection.clientId,
    allowedCallbackUris: lines.format(connection.allowedCallbackUris),
    scopes: connection.scopes.join(' '),
    useDiscovery: connection.useDiscovery,
    discoveryUrl: connection.discoveryUrl ?? '',
    issuer: connection.issuer ?? '',
    authorizationEndpoint: connection.authorizationEndpoint ?? '',
    tokenEndpoint: connection.tokenEndpoint ?? '',
    userInfoEndpoint: connection.userInfoEndpoint ?? '',
    jwksUri: connection.jwksUri ?? '',
    microsoftTenant: connection.microsoftTenant ?? '',
    clientAuthMethod: connection.clientAuthMethod,
    useUserInfo: connection.useUserInfo === null ? 'default' : connection.useUserInfo ? 'yes' : 'no',
    appleTeamId: connection.appleTeamId ?? '',
    appleKeyId: connection.appleKeyId ?? '',
    enabled: connection.enabled,
    ...(Object.fromEntries(
      OIDC_MAPPED_CLAIMS.map((claim) => [claimField(claim), mapping[claim] ?? '']),
    ) as Record<ClaimField, string>),
  };
}

/**
 * The body of POST (or, with `editing`, PUT) /oidc-connections from the form: only the fields the provider
 * type takes; an empty secret on an edit is left out, which keeps the stored one.
 */
export function oidcBody(values: OidcFormValues, organizationId: string, editing: boolean) {
  const takes = PROVIDER_FIELDS[values.providerType];
  const text = (name: OidcField) => (takes.has(name) ? values[name] : '');
  const secret = (name: 'clientSecret' | 'applePrivateKeyPem') =>
    editing && values[name] === '' ? undefined : text(name);
  const claimMapping = Object.fromEntries(
    OIDC_MAPPED_CLAIMS.map((claim) => [claim, text(claimField(claim))]).filter(([, name]) => name !== ''),
  );
  const custom = values.providerType === 'Custom';
  return {
    providerType: values.providerType,
    displayName: values.displayName,
    clientId: values.clientId,
    clientSecret: secret('clientSecret'),
    allowedCallbackUris: lines.parse(values.allowedCallbackUris),
    scopes: values.scopes.split(/\s+/).filter((scope) => scope !== ''),
    useDiscovery: custom ? values.useDiscovery : undefined,
    // Custom with discovery names only its document; without, only the endpoints (and the reverse is refused).
    discoveryUrl: custom && !values.useDiscovery ? '' : text('discoveryUrl'),
    issuer: custom && values.useDiscovery ? '' : text('issuer'),
    jwksUri: custom && values.useDiscovery ? '' : text('jwksUri'),
    authorizationEndpoint: custom && values.useDiscovery ? '' : text('authorizationEndpoint'),
    tokenEndpoint: custom && values.useDiscovery ? '' : text('tokenEndpoint'),
    userInfoEndpoint: custom && values.useDiscovery ? '' : text('userInfoEndpoint'),
    microsoftTenant: text('microsoftTenant'),
    clientAuthMethod: takes.has('clientAuthMethod') ? values.clientAuthMethod : undefined,
    useUserInfo:
      !takes.has('useUserInfo') || values.useUserInfo === 'default'
        ? undefined
        : values.useUserInfo === 'yes',
    appleTeamId: text('appleTeamId'),
    appleKeyId: text('appleKeyId'),
    applePrivateKeyPem: secret('applePrivateKeyPem'),
    claimMapping: Object.keys(claimMapping).length === 0 ? undefined : claimMapping,
    organizationId,
    enabled: editing ? undefined : values.enabled,
  };
}

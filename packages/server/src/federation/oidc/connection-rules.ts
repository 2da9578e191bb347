import {
  OIDC_MAPPED_CLAIMS,
  type CreateOidcConnectionInput,
  type OidcClaimMappingInput,
  type OidcProviderType,
} from '@svc/contract';
import { SvcValidationError, type ValidationIssue } from '../../kernel/errors.js';
import {
  BUILT_IN_DISPLAY_NAMES,
  FIXED_CLAIM_MAPPINGS,
  MICROSOFT_DEFAULT_TENANT,
} from './provider-defaults.js';
import type { OidcConnectionSettings } from './repository.js';

/** A create or update body as the contract schema parsed it (`enabled` is handled by the caller). */
export type OidcConnectionInputFields = Omit<CreateOidcConnectionInput, 'enabled'>;

/**
 * The callback URIs' `{connectionId}` placeholder (docs/reference/federation.md), replaced with the
 * connection's id.
 */
export const CONNECTION_ID_PLACEHOLDER = '{connectionId}';

const APPLE_ONLY = ['appleTeamId', 'appleKeyId', 'applePrivateKeyPem'] as const;

/**
 * Checks what the connection's provider type requires, refuses and fixes (docs/reference/federation.md
 * "Fields each provider type requires, refuses and fixes") and answers the settings to store. Every problem
 * is reported at once, as one 400 naming each field. `secretsRequired` is false for an update, which keeps
 * the stored secrets when the body carries none.
 */
export function connectionSettings(
  input: OidcConnectionInputFields,
  options: { readonly connectionId: string; readonly secretsRequired: boolean },
): OidcConnectionSettings {
  const issues: ValidationIssue[] = [];
  const refuse = (path: string, message: string) => issues.push({ path, message });
  const type = input.providerType;

  if (type === 'Custom' && input.displayName === null) {
    refuse('displayName', 'is required for a Custom connection');
  }
  checkCredentials(input, options.secretsRequired, refuse);
  const useDiscovery = checkEndpoints(input, refuse);
  checkClaimMapping(type, input.claimMapping, refuse);
  if (type !== 'Apple' && type !== 'GitHub' && input.scopes.length > 0 && !input.scopes.includes('openid')) {
    refuse('scopes', 'must include openid for an OpenID Connect provider (or be empty for the defaults)');
  }
  if (issues.length > 0) {
    const list = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
    throw new SvcValidationError(`Invalid ${type} connection: ${list}.`, issues);
  }

  return {
    providerType: type,
    displayName: input.displayName ?? BUILT_IN_DISPLAY_NAMES[type] ?? type,
    clientId: input.clientId,
    allowedCallbackUris: input.allowedCallbackUris.map((uri) =>
      uri.replaceAll(CONNECTION_ID_PLACEHOLDER, options.connectionId),
    ),
    useDiscovery,
    discoveryUrl: input.discoveryUrl,
    issuer: input.issuer,
    authorizationEndpoint: input.authorizationEndpoint,
    tokenEndpoint: input.tokenEndpoint,
    userInfoEndpoint: input.userInfoEndpoint,
    jwksUri: input.jwksUri,
    // docs/reference/federation.md: `common` when omitted; ignored for other providers.
    microsoftTenant: type === 'Microsoft' ? (input.microsoftTenant ?? MICROSOFT_DEFAULT_TENANT) : null,
    scopes: input.scopes,
    claimMapping: inCanonicalOrder(input.claimMapping),
    clientAuthMethod: input.clientAuthMethod,
    useUserInfo: input.useUserInfo,
    appleTeamId: input.appleTeamId,
    appleKeyId: input.appleKeyId,
    logoDataUrl: input.logoDataUrl,
    organizationId: input.organizationId,
  };
}

type Refuse = (path: string, message: string) => void;

/**
 * Apple signs its client secret with its key (docs/reference/federation.md); every other provider needs a
 * client secret.
 */
function checkCredentials(input: OidcConnectionInputFields, secretsRequired: boolean, refuse: Refuse): void {
  if (input.providerType !== 'Apple') {
    if (secretsRequired && input.clientSecret === null) {
      refuse('clientSecret', `is required for a ${input.providerType} connection`);
    }
    for (const field of APPLE_ONLY) {
      if (input[field] !== null) refuse(field, 'is only for Apple connections');
    }
    return;
  }
  if (input.clientSecret !== null) {
    refuse(
      'clientSecret',
      'is not used by Apple: Svc signs a short-lived client secret with applePrivateKeyPem',
    );
  }
  if (input.appleTeamId === null) refuse('appleTeamId', 'is required for an Apple connection');
  if (input.appleKeyId === null) refuse('appleKeyId', 'is required for an Apple connection');
  if (secretsRequired && input.applePrivateKeyPem === null) {
    refuse('applePrivateKeyPem', 'is required for an Apple connection');
  }
  if (input.clientAuthMethod !== 'ClientSecretPost') {
    refuse('clientAuthMethod', 'Apple always uses ClientSecretPost');
  }
  if (input.useUserInfo === true) refuse('useUserInfo', 'Apple has no UserInfo endpoint');
  if (input.userInfoEndpoint !== null) refuse('userInfoEndpoint', 'Apple has no UserInfo endpoint');
}

/**
 * Custom connections use discovery or manual endpoints; the built-ins use their provider's discovery
 * (GitHub: its OAuth profile endpoints) and accept overrides of the authorization, token and UserInfo
 * endpoints and of the discovery URL. Answers the `useDiscovery` to store.
 */
function checkEndpoints(input: OidcConnectionInputFields, refuse: Refuse): boolean {
  const type = input.providerType;
  if (type === 'Custom') {
    const useDiscovery = input.useDiscovery ?? input.discoveryUrl !== null;
    if (useDiscovery) {
      if (input.discoveryUrl === null) refuse('discoveryUrl', 'is required when useDiscovery is true');
      for (const field of ['issuer', 'jwksUri'] as const) {
        if (input[field] !== null) {
          refuse(field, 'comes from the discovery document; remove it, or set useDiscovery to false');
        }
      }
      return true;
    }
    if (input.discoveryUrl !== null) refuse('discoveryUrl', 'is used only when useDiscovery is true');
    for (const field of ['issuer', 'authorizationEndpoint', 'tokenEndpoint', 'jwksUri'] as const) {
      if (input[field] === null) {
        refuse(field, 'is required without discovery (or set useDiscovery to true and give discoveryUrl)');
      }
    }
    if (input.useUserInfo === true && input.userInfoEndpoint === null) {
      refuse('userInfoEndpoint', 'is required when useUserInfo is true without discovery');
    }
    return false;
  }
  for (const field of ['issuer', 'jwksUri'] as const) {
    if (input[field] !== null) {
      refuse(
        field,
        type === 'GitHub'
          ? 'is not used by GitHub, which issues no ID token'
          : `comes from ${type}'s discovery document (override discoveryUrl instead)`,
      );
    }
  }
  if (type !== 'GitHub') return true;
  if (input.discoveryUrl !== null) {
    refuse(
      'discoveryUrl',
      'is not used by GitHub, which has no discovery document; override authorizationEndpoint, tokenEndpoint and userInfoEndpoint',
    );
  }
  if (input.useUserInfo === false) refuse('useUserInfo', "GitHub's profile comes from its user API");
  return false;
}

/** A claim named in the mapping of Apple or GitHub must be the fixed one (so that a read can be sent back). */
function checkClaimMapping(
  type: OidcProviderType,
  mapping: OidcClaimMappingInput | null,
  refuse: Refuse,
): void {
  const fixed = FIXED_CLAIM_MAPPINGS[type];
  if (fixed === undefined || mapping === null) return;
  for (const [claim, name] of Object.entries(mapping)) {
    const expected = fixed[claim as keyof typeof fixed];
    if (name !== undefined && name !== expected) {
      refuse(`claimMapping.${claim}`, `is fixed for ${type} (${expected ?? 'not mapped'})`);
    }
  }
}

/**
 * The mapping with its claims in a fixed order (docs/reference/federation.md), so that equal mappings are stored and
 * compared alike.
 */
function inCanonicalOrder(mapping: OidcClaimMappingInput | null): OidcClaimMappingInput | null {
  if (mapping === null) return null;
  const ordered: Record<string, string> = {};
  for (const claim of OIDC_MAPPED_CLAIMS) {
    const name = mapping[claim];
    if (name !== undefined) ordered[claim] = name;
  }
  return ordered;
}

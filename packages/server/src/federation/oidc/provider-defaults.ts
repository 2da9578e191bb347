import type {
  OidcClaimMapping,
  OidcClaimMappingInput,
  OidcProviderType,
  SvcOidcResolvedProvider,
} from '@svc/contract';
import { DEFAULT_PROVIDER_LOGOS } from './provider-logos.js';
import type { OidcConnectionSettings } from './repository.js';

/**
 * What each provider type does by default (docs/reference/federation.md "Fields each provider type requires,
 * refuses and fixes"), and the profile a connection's settings resolve to.
 */

export const GOOGLE_DISCOVERY_URL = 'https://accounts.google.com/.well-known/openid-configuration';
/** Microsoft identity platform v2.0; `{tenant}` is the connection's tenant (URL-encoded). */
export const MICROSOFT_DISCOVERY_URL =
  'https://login.microsoftonline.com/{tenant}/v2.0/.well-known/openid-configuration';
export const MICROSOFT_DEFAULT_TENANT = 'common';
export const APPLE_DISCOVERY_URL = 'https://appleid.apple.com/.well-known/openid-configuration';

/** GitHub's OAuth 2.0 profile: no discovery document and no ID token. */
export const GITHUB_ENDPOINTS = Object.freeze({
  authorizationEndpoint: 'https://github.com/login/oauth/authorize',
  tokenEndpoint: 'https://github.com/login/oauth/access_token',
  userInfoEndpoint: 'https://api.github.com/user',
});

export const OIDC_DEFAULT_SCOPES: readonly string[] = Object.freeze(['openid', 'email', 'profile']);
export const APPLE_DEFAULT_SCOPES: readonly string[] = Object.freeze(['name', 'email']);
export const GITHUB_DEFAULT_SCOPES: readonly string[] = Object.freeze(['read:user', 'user:email']);

/** The display name of a built-in connection created without one. */
export const BUILT_IN_DISPLAY_NAMES: Readonly<Partial<Record<OidcProviderType, string>>> = Object.freeze({
  Google: 'Google',
  Microsoft: 'Microsoft',
  Apple: 'Apple',
  GitHub: 'GitHub',
});

/** Standard OpenID Connect claim names (OpenID Connect Core 1.0 §5.1). */
export const STANDARD_CLAIM_MAPPING: OidcClaimMapping = Object.freeze({
  subject: 'sub',
  email: 'email',
  emailVerified: 'email_verified',
  displayName: 'name',
  firstName: 'given_name',
  lastName: 'family_name',
  preferredUsername: 'preferred_username',
});

/**
 * The fixed mappings (docs/reference/federation.md: Apple's and GitHub's mappings are fixed). Apple's ID
 * token carries `sub`, `email` and `email_verified`; its names arrive once, in the first sign-in's form
 * post, and the sign-in step presents them under the standard names. GitHub's `/user` answer carries
 * `id`, `name` and `login`; `email` and `verified` are read from the primary entry of its emails API.
 */
export const FIXED_CLAIM_MAPPINGS: Readonly<Partial<Record<OidcProviderType, OidcClaimMapping>>> =
  Object.freeze({
    Apple: STANDARD_CLAIM_MAPPING,
    GitHub: Object.freeze({
      subject: 'id',
      email: 'email',
      emailVerified: 'verified',
      displayName: 'name',
      firstName: null,
      lastName: null,
      preferredUsername: 'login',
    }),
  });

/**
 * A connection's resolved provider profile: what the sign-in step uses. An endpoint that is null here is
 * read from the discovery document at `discoveryUrl`; a non-null one (manual Custom, or an override of a
 * discovery-based connection) wins over the document.
 */
export interface OidcProviderProfile extends SvcOidcResolvedProvider {
  /** Apple's client secret is a JWT signed ES256 with the private key under this team id and key id. */
  readonly apple: { readonly teamId: string; readonly keyId: string } | null;
}

/** Resolves the defaults of the connection's provider type over its settings. */
export function resolveProviderProfile(settings: OidcConnectionSettings): OidcProviderProfile {
  const type = settings.providerType;
  const logoDataUrl = settings.logoDataUrl ?? DEFAULT_PROVIDER_LOGOS[type] ?? null;
  if (type === 'GitHub') {
    const userInfoEndpoint = settings.userInfoEndpoint ?? GITHUB_ENDPOINTS.userInfoEndpoint;
    return {
      protocol: 'oauth_profile',
      authenticationMethod: 'github',
      discoveryUrl: null,
      issuer: null,
      issuerCheck: 'exact',
      authorizationEndpoint: settings.authorizationEndpoint ?? GITHUB_ENDPOINTS.authorizationEndpoint,
      tokenEndpoint: settings.tokenEndpoint ?? GITHUB_ENDPOINTS.tokenEndpoint,
      userInfoEndpoint,
      jwksUri: null,
      // docs/reference/federation.md: GitHub's emails API is <userInfoEndpoint>/emails.
      emailsEndpoint: `${userInfoEndpoint.replace(/\/+$/, '')}/emails`,
      microsoftTenant: null,
      scopes: settings.scopes.length > 0 ? [...settings.scopes] : [...GITHUB_DEFAULT_SCOPES],
      claimMapping: { ...(FIXED_CLAIM_MAPPINGS.GitHub ?? STANDARD_CLAIM_MAPPING) },
      clientAuthMethod: settings.clientAuthMethod,
      useUserInfo: true,
      logoDataUrl,
      apple: null,
    };
  }
  const manual = type === 'Custom' && !settings.useDiscovery;
  const apple = type === 'Apple';
  const tenant = settings.microsoftTenant ?? MICROSOFT_DEFAULT_TENANT;
  return {
    protocol: 'oidc',
    authenticationMethod:
      type === 'Custom' ? 'oidc' : (type.toLowerCase() as 'google' | 'microsoft' | 'apple'),
    discoveryUrl: manual ? null : discoveryUrlOf(settings, tenant),
    issuer: manual ? settings.issuer : null,
    issuerCheck: type === 'Microsoft' ? 'microsoft_tenant' : 'exact',
    authorizationEndpoint: settings.authorizationEndpoint,
    tokenEndpoint: settings.tokenEndpoint,
    userInfoEndpoint: apple ? null : settings.userInfoEndpoint,
    jwksUri: manual ? settings.jwksUri : null,
    emailsEndpoint: null,
    microsoftTenant: type === 'Microsoft' ? tenant : null,
    scopes:
      settings.scopes.length > 0
        ? [...settings.scopes]
        : [...(apple ? APPLE_DEFAULT_SCOPES : OIDC_DEFAULT_SCOPES)],
    claimMapping: apple ? { ...STANDARD_CLAIM_MAPPING } : withOverrides(settings.claimMapping),
    // docs/reference/federation.md: Apple always ClientSecretPost, and no UserInfo.
    clientAuthMethod: apple ? 'ClientSecretPost' : settings.clientAuthMethod,
    // A manual Custom connection without a UserInfo endpoint has none to call.
    useUserInfo: apple ? false : (settings.useUserInfo ?? (!manual || settings.userInfoEndpoint !== null)),
    logoDataUrl,
    apple:
      apple && settings.appleTeamId !== null && settings.appleKeyId !== null
        ? { teamId: settings.appleTeamId, keyId: settings.appleKeyId }
        : null,
  };
}

/** The standard claim names with the configured ones in their place. */
function withOverrides(mapping: OidcClaimMappingInput | null): OidcClaimMapping {
  const resolved: Record<string, string | null> = { ...STANDARD_CLAIM_MAPPING };
  for (const [claim, name] of Object.entries(mapping ?? {})) {
    if (name !== undefined) resolved[claim] = name;
  }
  return resolved as OidcClaimMapping;
}

/** The discovery document of a discovery-based connection: the override, else the provider's. */
function discoveryUrlOf(settings: OidcConnectionSettings, tenant: string): string | null {
  switch (settings.providerType) {
    case 'Google':
      return settings.discoveryUrl ?? GOOGLE_DISCOVERY_URL;
    case 'Apple':
      return settings.discoveryUrl ?? APPLE_DISCOVERY_URL;
    case 'Microsoft':
      // An override may hold `{tenant}` too (a sovereign cloud's login host with the connection's tenant).
      return (settings.discoveryUrl ?? MICROSOFT_DISCOVERY_URL).replaceAll(
        '{tenant}',
        encodeURIComponent(tenant),
      );
    default:
      return settings.discoveryUrl;
  }
}

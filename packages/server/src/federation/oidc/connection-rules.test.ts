import {
  createOidcConnectionBodySchema,
  logoDataUrlSchema,
  type CreateOidcConnectionBody,
} from '@svc/contract';
import { describe, expect, it } from 'vitest';
import { SvcValidationError } from '../../kernel/errors.js';
import { connectionSettings } from './connection-rules.js';
import { resolveProviderProfile, type OidcProviderProfile } from './provider-defaults.js';
import { DEFAULT_PROVIDER_LOGOS } from './provider-logos.js';

const CALLBACK = 'https://id.example.com/svc/auth/oidc/callback';
const APPLE_KEY =
  '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----';

/** The body's provider rules as the create operation checks them, for a connection with id `oidc_1`. */
function settingsOf(body: CreateOidcConnectionBody, secretsRequired = true) {
  const input = createOidcConnectionBodySchema.parse(body);
  return connectionSettings(input, { connectionId: 'oidc_1', secretsRequired });
}

function profileOf(body: CreateOidcConnectionBody): OidcProviderProfile {
  return resolveProviderProfile(settingsOf(body));
}

/** The fields each 400 names, in order. */
function refusedPaths(body: CreateOidcConnectionBody, secretsRequired = true): string[] {
  try {
    settingsOf(body, secretsRequired);
  } catch (error) {
    if (error instanceof SvcValidationError) return error.details.map((issue) => issue.path);
    throw error;
  }
  return [];
}

const base = { clientId: 'client-1', clientSecret: 'secret-1', allowedCallbackUris: [CALLBACK] };

describe('OIDC connection rules and defaults', () => {
  it('Google: discovery, OIDC scopes, the standard mapping, post auth, UserInfo and its logo', () => {
    const profile = profileOf({ ...base, providerType: 'Google' });
    expect(profile).toEqual({
      protocol: 'oidc',
      authenticationMethod: 'google',
      discoveryUrl: 'https://accounts.google.com/.well-known/openid-configuration',
      issuer: null,
      issuerCheck: 'exact',
      authorizationEndpoint: null,
      tokenEndpoint: null,
      userInfoEndpoint: null,
      jwksUri: null,
      emailsEndpoint: null,
      microsoftTenant: null,
      scopes: ['openid', 'email', 'profile'],
      claimMapping: {
        subject: 'sub',
        email: 'email',
        emailVerified: 'email_verified',
        displayName: 'name',
        firstName: 'given_name',
        lastName: 'family_name',
        preferredUsername: 'preferred_username',
      },
      clientAuthMethod: 'ClientSecretPost',
      useUserInfo: true,
      logoDataUrl: DEFAULT_PROVIDER_LOGOS.Google,
      apple: null,
    });
    expect(settingsOf({ ...base, providerType: 'Google' }).displayName).toBe('Google');
  });

  it('Microsoft: the tenant v2 discovery (common by default), checked per tenant; overrides may hold {tenant}', () => {
    const common = profileOf({ ...base, providerType: 'Microsoft', microsoftTenant: '' });
    expect(common).toMatchObject({
      authenticationMethod: 'microsoft',
      discoveryUrl: 'https://login.microsoftonline.com/common/v2.0/.well-known/openid-configuration',
      issuerCheck: 'microsoft_tenant',
      microsoftTenant: 'common',
    });
    const tenant = profileOf({
      ...base,
      providerType: 'Microsoft',
      microsoftTenant: 'Contoso.OnMicrosoft.com',
    });
    expect(tenant.discoveryUrl).toBe(
      'https://login.microsoftonline.com/contoso.onmicrosoft.com/v2.0/.well-known/openid-configuration',
    );
    const sovereign = profileOf({
      ...base,
      providerType: 'Microsoft',
      microsoftTenant: 'organizations',
      discoveryUrl: 'https://login.microsoftonline.us/{tenant}/v2.0/.well-known/openid-configuration',
      tokenEndpoint: 'http://127.0.0.1:4000/token',
    });
    expect(sovereign).toMatchObject({
      discoveryUrl: 'https://login.microsoftonline.us/organizations/v2.0/.well-known/openid-configuration',
      tokenEndpoint: 'http://127.0.0.1:4000/token',
    });
    expect(
      settingsOf({ ...base, providerType: 'Google', microsoftTenant: 'contoso' }).microsoftTenant,
    ).toBeNull();
  });

  it('Apple: key material instead of a secret, post auth, no UserInfo, name and email scopes', () => {
    const apple = {
      ...base,
      clientSecret: null,
      providerType: 'apple',
      appleTeamId: 'TEAM123456',
      appleKeyId: 'KEY1234567',
      applePrivateKeyPem: APPLE_KEY,
    };
    expect(profileOf(apple)).toMatchObject({
      authenticationMethod: 'apple',
      discoveryUrl: 'https://appleid.apple.com/.well-known/openid-configuration',
      scopes: ['name', 'email'],
      clientAuthMethod: 'ClientSecretPost',
      useUserInfo: false,
      userInfoEndpoint: null,
      apple: { teamId: 'TEAM123456', keyId: 'KEY1234567' },
    });
    expect(refusedPaths({ ...apple, appleTeamId: null, appleKeyId: '', applePrivateKeyPem: null })).toEqual([
      'appleTeamId',
      'appleKeyId',
      'applePrivateKeyPem',
    ]);
    expect(refusedPaths({ ...apple, applePrivateKeyPem: null }, false)).toEqual([]);
    expect(
      refusedPaths({
        ...apple,
        clientSecret: 'x',
        clientAuthMethod: 'ClientSecretBasic',
        useUserInfo: true,
        userInfoEndpoint: 'https://appleid.apple.com/userinfo',
        claimMapping: { email: 'mail', subject: 'sub' },
      }),
    ).toEqual(['clientSecret', 'clientAuthMethod', 'useUserInfo', 'userInfoEndpoint', 'claimMapping.email']);
  });

  it('GitHub: the OAuth profile endpoints, its emails API, fixed mapping and scopes; overrides for Enterprise Server', () => {
    expect(profileOf({ ...base, providerType: 'GitHub' })).toMatchObject({
      protocol: 'oauth_profile',
      authenticationMethod: 'github',
      discoveryUrl: null,
      authorizationEndpoint: 'https://github.com/login/oauth/authorize',
      tokenEndpoint: 'https://github.com/login/oauth/access_token',
      userInfoEndpoint: 'https://api.github.com/user',
      emailsEndpoint: 'https://api.github.com/user/emails',
      scopes: ['read:user', 'user:email'],
      claimMapping: { subject: 'id', preferredUsername: 'login', firstName: null },
      useUserInfo: true,
    });
    const enterprise = profileOf({
      ...base,
      providerType: 'GitHub',
      authorizationEndpoint: 'https://github.example.com/login/oauth/authorize',
      tokenEndpoint: 'https://github.example.com/login/oauth/access_token',
      userInfoEndpoint: 'https://github.example.com/api/v3/user/',
      scopes: ['read:user'],
    });
    expect(enterprise).toMatchObject({
      userInfoEndpoint: 'https://github.example.com/api/v3/user/',
      emailsEndpoint: 'https://github.example.com/api/v3/user/emails',
      scopes: ['read:user'],
    });
    expect(
      refusedPaths({
        ...base,
        providerType: 'GitHub',
        clientSecret: null,
        discoveryUrl: 'https://github.com/.well-known/openid-configuration',
        issuer: 'https://github.com',
        useUserInfo: false,
        claimMapping: { subject: 'id', preferredUsername: 'email' },
      }),
    ).toEqual(['clientSecret', 'issuer', 'discoveryUrl', 'useUserInfo', 'claimMapping.preferredUsername']);
  });

  it('Custom by discovery: discoveryUrl (useDiscovery implied), endpoint overrides, mapping merged over the standard one', () => {
    const custom = {
      ...base,
      providerType: 'CUSTOM',
      displayName: 'Corporate IdP',
      discoveryUrl: 'https://idp.example.com/.well-known/openid-configuration',
      tokenEndpoint: 'https://idp-internal.example.com/token',
      claimMapping: { email: 'mail', subject: 'oid' },
      clientAuthMethod: 'client_secret_basic',
    };
    expect(settingsOf(custom)).toMatchObject({
      useDiscovery: true,
      claimMapping: { subject: 'oid', email: 'mail' },
    });
    expect(profileOf(custom)).toMatchObject({
      authenticationMethod: 'oidc',
      discoveryUrl: 'https://idp.example.com/.well-known/openid-configuration',
      tokenEndpoint: 'https://idp-internal.example.com/token',
      claimMapping: { subject: 'oid', email: 'mail', displayName: 'name' },
      clientAuthMethod: 'ClientSecretBasic',
      logoDataUrl: null,
    });
    expect(refusedPaths({ ...base, providerType: 'Custom', useDiscovery: true })).toEqual([
      'displayName',
      'discoveryUrl',
    ]);
    expect(
      refusedPaths({ ...custom, issuer: 'https://idp.example.com', jwksUri: 'https://idp.example.com/jwks' }),
    ).toEqual(['issuer', 'jwksUri']);
    expect(refusedPaths({ ...custom, scopes: ['email'] })).toEqual(['scopes']);
  });

  it('Custom by manual endpoints: issuer, authorization, token and JWKS required; UserInfo only when given', () => {
    const manual = {
      ...base,
      providerType: 'Custom',
      displayName: 'Manual',
      issuer: 'https://idp.example.com',
      authorizationEndpoint: 'https://idp.example.com/authorize',
      tokenEndpoint: 'https://idp.example.com/token',
      jwksUri: 'https://idp.example.com/jwks',
    };
    expect(profileOf(manual)).toMatchObject({
      discoveryUrl: null,
      issuer: 'https://idp.example.com',
      jwksUri: 'https://idp.example.com/jwks',
      useUserInfo: false,
    });
    expect(profileOf({ ...manual, userInfoEndpoint: 'https://idp.example.com/me' }).useUserInfo).toBe(true);
    expect(
      refusedPaths({
        ...base,
        providerType: 'Custom',
        displayName: 'Manual',
        useDiscovery: false,
        useUserInfo: true,
      }),
    ).toEqual(['issuer', 'authorizationEndpoint', 'tokenEndpoint', 'jwksUri', 'userInfoEndpoint']);
  });

  it('non-Apple connections need a client secret on create and refuse Apple key material', () => {
    expect(
      refusedPaths({
        ...base,
        providerType: 'Google',
        clientSecret: null,
        appleTeamId: 'TEAM123456',
        applePrivateKeyPem: APPLE_KEY,
      }),
    ).toEqual(['clientSecret', 'appleTeamId', 'applePrivateKeyPem']);
    expect(refusedPaths({ ...base, providerType: 'Google', clientSecret: null }, false)).toEqual([]);
  });

  it('replaces {connectionId} in the callback URIs with the connection id', () => {
    const settings = settingsOf({
      ...base,
      providerType: 'Google',
      allowedCallbackUris: ['https://app.example.com/cb/{connectionId}?c={connectionId}', CALLBACK],
    });
    expect(settings.allowedCallbackUris).toEqual(['https://app.example.com/cb/oidc_1?c=oidc_1', CALLBACK]);
  });

  it('the default logos are valid logoDataUrl values', () => {
    for (const logo of Object.values(DEFAULT_PROVIDER_LOGOS)) {
      expect(logoDataUrlSchema.safeParse(logo).success).toBe(true);
    }
  });
});

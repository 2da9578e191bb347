import { describe, expect, it } from 'vitest';
import { optionsFromEnv } from './env.js';
import { resolveConfig } from './resolve.js';

describe('dynamic client registration settings', () => {
  it('is off by default, with SPEC.md limits and the issuer as the audience', () => {
    expect(resolveConfig({}).dynamicClientRegistration).toEqual({
      enabled: false,
      allowedScopes: [],
      audience: 'http://localhost:8080/svc/auth',
      maxScopeCount: 32,
      maxScopeLength: 128,
    });
  });

  it('reads SVC_DCR_ENABLED, SVC_DCR_ALLOWED_SCOPES (spaces or commas) and SVC_DCR_AUDIENCE', () => {
    const options = optionsFromEnv({
      SVC_DCR_ENABLED: 'on',
      SVC_DCR_ALLOWED_SCOPES: 'openid, profile notes:read,,openid',
      SVC_DCR_AUDIENCE: ' https://mcp.example.com ',
    });
    expect(resolveConfig(options).dynamicClientRegistration).toMatchObject({
      enabled: true,
      allowedScopes: ['openid', 'profile', 'notes:read'],
      audience: 'https://mcp.example.com',
    });
    expect(optionsFromEnv({})).not.toHaveProperty('dynamicClientRegistration');
  });

  it('refuses settings a registration could never meet, saying what to fix', () => {
    expect(() => optionsFromEnv({ SVC_DCR_ENABLED: 'maybe' })).toThrow(/SVC_DCR_ENABLED must be 1\/true\/on/);
    expect(() => resolveConfig({ dynamicClientRegistration: { allowedScopes: ['auth:admin'] } })).toThrow(
      /SVC_DCR_ALLOWED_SCOPES: "auth:admin" is not a scope a client can register/,
    );
    expect(() => resolveConfig({ dynamicClientRegistration: { allowedScopes: ['a"b'] } })).toThrow(
      /"a"b" is not a scope/,
    );
    expect(() => resolveConfig({ dynamicClientRegistration: { audience: '  ' } })).toThrow(
      /SVC_DCR_AUDIENCE must be 1 to 2048 characters/,
    );
    expect(() => resolveConfig({ dynamicClientRegistration: { maxScopeCount: 0 } })).toThrow(
      /dynamicClientRegistration.maxScopeCount must be a whole number of at least 1/,
    );
  });
});

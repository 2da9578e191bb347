import { describe, expect, it } from 'vitest';
import { optionsFromEnv } from './env.js';
import { resolveConfig } from './resolve.js';

describe('dynamic client registration settings', () => {
  it('is off by default, with the documented limits and the issuer as the audience', () => {
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

describe('client ID metadata document settings', () => {
  it('is off by default, with any host, the registration limits and the issuer as the audience', () => {
    expect(resolveConfig({}).clientIdMetadataDocuments).toEqual({
      enabled: false,
      allowedHosts: [],
      allowedScopes: [],
      audience: 'http://localhost:8080/svc/auth',
      maxScopeCount: 32,
      maxScopeLength: 128,
      timeoutMs: 5_000,
      caCertificates: [],
      allowLoopback: false,
    });
  });

  it('fetches documents from this machine only when SVC_CIMD_ALLOW_LOOPBACK says so, never by the development default', () => {
    const development = resolveConfig({ development: true, allowInsecureLoopback: true });
    expect(development.allowInsecureLoopback).toBe(true);
    expect(development.clientIdMetadataDocuments.allowLoopback).toBe(false);
    const options = optionsFromEnv({ SVC_CIMD_ALLOW_LOOPBACK: '1' });
    expect(options).toEqual({ clientIdMetadataDocuments: { allowLoopback: true } });
    expect(resolveConfig(options).clientIdMetadataDocuments.allowLoopback).toBe(true);
    expect(() => optionsFromEnv({ SVC_CIMD_ALLOW_LOOPBACK: 'sometimes' })).toThrow(
      /SVC_CIMD_ALLOW_LOOPBACK must be 1\/true\/on/,
    );
  });

  it('reads SVC_CIMD_ENABLED, SVC_CIMD_ALLOWED_HOSTS, SVC_CIMD_ALLOWED_SCOPES and SVC_CIMD_AUDIENCE', () => {
    const options = optionsFromEnv({
      SVC_CIMD_ENABLED: 'true',
      SVC_CIMD_ALLOWED_HOSTS: 'Apps.Example.com, *.clients.example',
      SVC_CIMD_ALLOWED_SCOPES: 'openid notes:read',
      SVC_CIMD_AUDIENCE: 'https://api.example.com',
    });
    expect(resolveConfig(options).clientIdMetadataDocuments).toMatchObject({
      enabled: true,
      allowedHosts: ['apps.example.com', '*.clients.example'],
      allowedScopes: ['openid', 'notes:read'],
      audience: 'https://api.example.com',
    });
    // The registration settings are their own.
    expect(resolveConfig(options).dynamicClientRegistration).toMatchObject({
      enabled: false,
      allowedScopes: [],
    });
    expect(optionsFromEnv({})).not.toHaveProperty('clientIdMetadataDocuments');
    // A development host has one label.
    expect(
      resolveConfig({ clientIdMetadataDocuments: { allowedHosts: ['localhost'] } }).clientIdMetadataDocuments
        .allowedHosts,
    ).toEqual(['localhost']);
  });

  it.each([
    [
      'a URL',
      'https://apps.example.com',
      'SVC_CIMD_ALLOWED_HOSTS: "https://apps.example.com" is not a host name',
    ],
    ['a port', 'apps.example.com:443', 'is not a host name'],
    ['a bare wildcard', '*', 'is not a host name'],
    ['a wildcard inside', 'apps.*.example', 'is not a host name'],
  ])('refuses %s as an allowed host', (_name, host, message) => {
    expect(() => resolveConfig({ clientIdMetadataDocuments: { allowedHosts: [host] } })).toThrow(message);
  });

  it('names the CIMD variables in its other errors', () => {
    expect(() => resolveConfig({ clientIdMetadataDocuments: { allowedScopes: ['auth:admin'] } })).toThrow(
      /SVC_CIMD_ALLOWED_SCOPES: "auth:admin"/,
    );
    expect(() => resolveConfig({ clientIdMetadataDocuments: { timeoutMs: 0 } })).toThrow(
      /clientIdMetadataDocuments.timeoutMs must be 100 to 60000 milliseconds/,
    );
  });
});

import type { CreateOidcConnectionInput } from '@svc/contract';
import { describe, expect, it } from 'vitest';
import { SvcConfigError, SvcValidationError } from '../../kernel/errors.js';
import { applyOidcSeeds, oidcSeedInput, type OidcConnectionSeed } from './connection-seeds.js';

const CALLBACK = 'https://id.example.com/svc/auth/oidc/callback';
const GOOGLE: OidcConnectionSeed = {
  id: 'oidc_google',
  body: { providerType: 'Google', clientId: 'google-client', allowedCallbackUris: [CALLBACK] },
  clientSecret: { variable: 'GOOGLE_CLIENT_SECRET' },
  applePrivateKeyPem: null,
};
const env =
  (variables: Record<string, string>) =>
  (name: string): string | undefined =>
    variables[name];

/** The fault a seed's input raises; fails the test when there is none. */
function faultOf(seed: OidcConnectionSeed, readSecret: (name: string) => string | undefined): unknown {
  try {
    oidcSeedInput(seed, readSecret);
  } catch (error) {
    return error;
  }
  throw new Error(`seed '${seed.id}' was accepted`);
}

describe('oidcSeedInput', () => {
  it('reads a secret from the variable it names, and parses the rest as the operator API does', () => {
    const asked: string[] = [];
    const input = oidcSeedInput(GOOGLE, (name) => {
      asked.push(name);
      return 'from-the-environment';
    });
    expect(asked).toEqual(['GOOGLE_CLIENT_SECRET']);
    expect(input).toMatchObject({
      providerType: 'Google',
      clientId: 'google-client',
      clientSecret: 'from-the-environment',
      applePrivateKeyPem: null,
      enabled: true,
    });
  });

  it('takes a secret given in code as it is, without reading a variable', () => {
    const seed = { ...GOOGLE, clientSecret: { value: 'given-in-code' } };
    const input = oidcSeedInput(seed, () => {
      throw new Error('no variable is read');
    });
    expect(input.clientSecret).toBe('given-in-code');
  });

  it('leaves out a secret the seed does not give', () => {
    const seed = { ...GOOGLE, clientSecret: null };
    expect(oidcSeedInput(seed, env({ GOOGLE_CLIENT_SECRET: 'unused' })).clientSecret).toBeNull();
  });

  it('refuses an unset or blank variable, naming the seed, the variable and the field', () => {
    const apple: OidcConnectionSeed = {
      ...GOOGLE,
      id: 'oidc_apple',
      clientSecret: null,
      applePrivateKeyPem: { variable: 'APPLE_KEY' },
    };
    for (const [seed, variables, message] of [
      [
        GOOGLE,
        {},
        "OIDC connection seed 'oidc_google': the secret GOOGLE_CLIENT_SECRET (clientSecret) is not set.",
      ],
      [GOOGLE, { GOOGLE_CLIENT_SECRET: ' \n' }, 'GOOGLE_CLIENT_SECRET (clientSecret) is not set'],
      [apple, { APPLE_KEY: '' }, "'oidc_apple': the secret APPLE_KEY (applePrivateKeyPem) is not set"],
    ] as const) {
      const fault = faultOf(seed, env(variables));
      expect(fault).toBeInstanceOf(SvcConfigError);
      expect((fault as Error).message).toContain(message);
    }
  });

  it('turns a field the operator API refuses into a configuration fault naming the seed', () => {
    const seed = { ...GOOGLE, body: { ...GOOGLE.body, allowedCallbackUris: [] } };
    const fault = faultOf(seed, env({ GOOGLE_CLIENT_SECRET: 'secret-value' }));
    expect(fault).toBeInstanceOf(SvcConfigError);
    expect(fault).not.toBeInstanceOf(SvcValidationError);
    expect((fault as Error).message).toMatch(
      /^Invalid OIDC connection seed 'oidc_google': allowedCallbackUris: /,
    );
    expect((fault as Error).message).not.toContain('secret-value');
  });
});

describe('applyOidcSeeds', () => {
  const recorder = () => {
    const applied: [string, CreateOidcConnectionInput][] = [];
    const admin = {
      applySeed: (id: string, input: CreateOidcConnectionInput) => {
        applied.push([id, input]);
        return Promise.resolve(undefined as never);
      },
    };
    return { admin, applied };
  };

  it('writes each seed in order under its own id, with its secrets read', async () => {
    const { admin, applied } = recorder();
    const github: OidcConnectionSeed = {
      ...GOOGLE,
      id: 'oidc_github',
      body: { ...GOOGLE.body, providerType: 'GitHub' },
      clientSecret: { value: 'github-secret' },
    };
    await applyOidcSeeds(admin, [GOOGLE, github], env({ GOOGLE_CLIENT_SECRET: 'google-secret' }));
    expect(applied.map(([id, input]) => [id, input.providerType, input.clientSecret])).toEqual([
      ['oidc_google', 'Google', 'google-secret'],
      ['oidc_github', 'GitHub', 'github-secret'],
    ]);
  });

  it('stops at the first seed it cannot honour, writing none after it', async () => {
    const { admin, applied } = recorder();
    const unset = { ...GOOGLE, id: 'oidc_unset', clientSecret: { variable: 'UNSET' } };
    const start = applyOidcSeeds(admin, [GOOGLE, unset, GOOGLE], env({ GOOGLE_CLIENT_SECRET: 's' }));
    await expect(start).rejects.toThrow("OIDC connection seed 'oidc_unset': the secret UNSET");
    expect(applied.map(([id]) => id)).toEqual(['oidc_google']);
  });
});

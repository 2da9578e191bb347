import type { CreateOidcConnectionBody, OidcProviderType } from '@svc/contract';
import { exportPKCS8, generateKeyPair } from 'jose';

/**
 * Where the test connections send users back: Svc's own upstream callback, `{issuer}/oidc/callback`
 * (docs/reference/federation.md).
 */
export const TEST_OIDC_CALLBACK = 'http://localhost:8080/svc/auth/oidc/callback';

/** A client secret a test can search for in answers, logs and rows. */
export const TEST_OIDC_CLIENT_SECRET = 'oidc-client-secret-9f1c2a7e5d';

/** A PKCS#8 PEM private key of the given algorithm's curve or type (Apple's `.p8` is ES256). */
export async function pkcs8Key(alg: 'ES256' | 'ES384' | 'RS256' = 'ES256'): Promise<string> {
  const { privateKey } = await generateKeyPair(alg, { extractable: true });
  return exportPKCS8(privateKey);
}

/**
 * A valid create body for each provider type, with `fields` changed: Custom by discovery, the
 * built-ins with their defaults, Apple with the key in `applePrivateKeyPem` (pass one from pkcs8Key).
 */
export function oidcConnectionBody(
  providerType: OidcProviderType,
  fields: Partial<CreateOidcConnectionBody> = {},
): CreateOidcConnectionBody {
  const common = {
    providerType,
    clientId: `${providerType.toLowerCase()}-client`,
    allowedCallbackUris: [TEST_OIDC_CALLBACK],
  };
  switch (providerType) {
    case 'Custom':
      return {
        ...common,
        displayName: 'Corporate IdP',
        clientSecret: TEST_OIDC_CLIENT_SECRET,
        discoveryUrl: 'http://127.0.0.1:4000/.well-known/openid-configuration',
        ...fields,
      };
    case 'Apple':
      return { ...common, appleTeamId: 'TEAM123456', appleKeyId: 'KEY1234567', ...fields };
    default:
      return { ...common, clientSecret: TEST_OIDC_CLIENT_SECRET, ...fields };
  }
}

import type { SecretBox } from '../../kernel/crypto.js';
import type { OidcConnectionRecord } from './repository.js';

/** Seals and opens secrets with the master key (AES-256-GCM, `kernel/crypto.ts`). */
export type SecretSealer = Pick<SecretBox, 'encrypt' | 'decrypt'>;

/**
 * The associated data binds each sealed secret to its connection and its purpose, so that a sealed value
 * copied into another row or column does not open.
 */
const CLIENT_SECRET_AAD = (id: string) => `oidc-connection:${id}:client-secret`;
const APPLE_KEY_AAD = (id: string) => `oidc-connection:${id}:apple-private-key`;

export function sealClientSecret(box: SecretSealer, connectionId: string, secret: string): string {
  return box.encrypt(secret, CLIENT_SECRET_AAD(connectionId));
}

export function sealApplePrivateKey(box: SecretSealer, connectionId: string, pem: string): string {
  return box.encrypt(pem, APPLE_KEY_AAD(connectionId));
}

/** A connection's secret material, decrypted: for the sign-in step only, never for an answer or a log. */
export interface OidcConnectionSecrets {
  /** The client secret; null for Apple, whose client secret Svc signs with the private key. */
  readonly clientSecret: string | null;
  /** Apple's PKCS#8 PEM private key; null for the other providers. */
  readonly applePrivateKeyPem: string | null;
}

export function openSecrets(
  box: SecretSealer,
  record: Pick<OidcConnectionRecord, 'id' | 'clientSecretSealed' | 'applePrivateKeySealed'>,
): OidcConnectionSecrets {
  return {
    clientSecret:
      record.clientSecretSealed === null
        ? null
        : box.decrypt(record.clientSecretSealed, CLIENT_SECRET_AAD(record.id)),
    applePrivateKeyPem:
      record.applePrivateKeySealed === null
        ? null
        : box.decrypt(record.applePrivateKeySealed, APPLE_KEY_AAD(record.id)),
  };
}

import { importPKCS8 } from 'jose';
import { SvcValidationError } from '../../kernel/errors.js';

/**
 * Refuses (400) a key that cannot sign Apple's client secret: it must import as an ES256 key, that is an
 * EC P-256 private key in PKCS#8 PEM (the `.p8` file Apple hands out). Checked when the key is saved, so
 * that a wrong key is the operator's 400 now rather than a failed sign-in later.
 */
export async function assertApplePrivateKey(pem: string): Promise<void> {
  try {
    await importPKCS8(pem, 'ES256');
  } catch {
    throw new SvcValidationError(
      'Invalid Apple connection: applePrivateKeyPem: must be an EC P-256 private key in PKCS#8 PEM (the .p8 key file from Apple).',
      [{ path: 'applePrivateKeyPem', message: 'must be an EC P-256 private key in PKCS#8 PEM' }],
    );
  }
}

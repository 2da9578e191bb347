import type { KeyObject } from 'node:crypto';
import type { SigningKeys } from './signing-keys.js';

/**
 * jose's key lookup for a JWS of this service: the published key named by the header's `kid`. A missing
 * or unknown kid throws, which jose reports as a failed verification.
 */
export function publishedKey(
  keys: Pick<SigningKeys, 'verificationKey'>,
): (header: { readonly kid?: string | undefined }) => Promise<KeyObject> {
  return async (header) => {
    const key = header.kid === undefined ? undefined : await keys.verificationKey(header.kid);
    if (key === undefined) throw new Error('unknown key');
    return key;
  };
}

import type { SecretSealer } from './connection-secrets.js';

/** What a provider's callback is checked with: the nonce of the ID token and the PKCE verifier. */
export interface ProviderChecks {
  readonly nonce: string;
  readonly codeVerifier: string;
}

/**
 * The associated data binds the sealed checks to their state and their table (`purpose`): moved to
 * another row, or to another kind of in-flight record, they do not open.
 */
const checksAad = (purpose: string, stateHash: string) => `${purpose}:${stateHash}`;

/** Seals the checks of a redirect to a provider, kept until its callback under the state's hash. */
export function sealProviderChecks(
  box: SecretSealer,
  purpose: string,
  stateHash: string,
  checks: ProviderChecks,
): string {
  const plain = JSON.stringify({ nonce: checks.nonce, codeVerifier: checks.codeVerifier });
  return box.encrypt(plain, checksAad(purpose, stateHash));
}

/** Opens what {@link sealProviderChecks} sealed for the same purpose and state hash. */
export function openProviderChecks(
  box: SecretSealer,
  purpose: string,
  stateHash: string,
  sealed: string,
): ProviderChecks {
  const opened: unknown = JSON.parse(box.decrypt(sealed, checksAad(purpose, stateHash)));
  const { nonce, codeVerifier } = opened as ProviderChecks;
  return { nonce, codeVerifier };
}

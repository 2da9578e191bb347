import { safeEqual, sha256Hex } from '../../../kernel/crypto.js';
import { SvcConflictError } from '../../../kernel/errors.js';
import type { PasswordlessAccountInput, SignupService } from '../../signup.js';

/** The account a verified passwordless signup created, and the organization it owns (if it named one). */
export interface CreatedAccount {
  readonly userId: string;
  readonly organizationId: string | null;
}

/**
 * Creates the account of a verified email or phone signup challenge. Undefined when the address or
 * number was taken meanwhile (a concurrent signup won the unique key), which the callers answer like a
 * wrong code.
 */
export async function createPasswordlessAccount(
  signup: Pick<SignupService, 'signUpPasswordless'>,
  input: PasswordlessAccountInput & { readonly organizationName: string | null },
): Promise<CreatedAccount | undefined> {
  try {
    const { user, organizationId } = await signup.signUpPasswordless(input);
    return { userId: user.id, organizationId };
  } catch (error) {
    if (error instanceof SvcConflictError) return undefined;
    throw error;
  }
}

/**
 * Whether `signupToken` belongs to a signup challenge (its stored SHA-256, compared in constant time).
 * The token has 256 bits: a mismatch spends no code attempt, there is nothing to guess.
 */
export function signupTokenMatches(storedHash: string | null, signupToken: string): boolean {
  return storedHash !== null && safeEqual(storedHash, sha256Hex(signupToken));
}

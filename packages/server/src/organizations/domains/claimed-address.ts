import type { DomainClaims } from './domain-claims.js';

/** Which organization holds an active claim on a domain (DomainClaims fits). */
export type ActiveClaimLookup = Pick<DomainClaims, 'activeClaimOf'>;

/**
 * Whether `organizationId` holds an active claim (not a pending or revoked one) on the domain of `email`:
 * the organization's proof that it speaks for the address. What an organization's connection may
 * provision or bind by address (docs/decisions/accounts-linking-unverified-accounts.md). No address, or
 * one without a domain, is never claimed.
 */
export async function addressClaimedBy(
  claims: ActiveClaimLookup,
  organizationId: string,
  email: string | null,
): Promise<boolean> {
  const at = email?.lastIndexOf('@') ?? -1;
  if (email === null || at < 0) return false;
  // activeClaimOf normalizes the domain as claims are stored (case, spaces, a trailing dot).
  const claim = await claims.activeClaimOf(email.slice(at + 1));
  return claim?.organizationId === organizationId;
}

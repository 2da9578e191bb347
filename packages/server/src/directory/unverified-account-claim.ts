import type { AuditLog } from '../audit/audit-log.js';
import type { Clock } from '../kernel/clock.js';
import type { AccountClaimStore } from './account-claim-repository.js';
import type { DirectorySessionControl } from './deps.js';
import type { UserRecord } from './repository.js';

/**
 * How the address was proved: the linker that claims. `scim` is a directory's push under its
 * organization's active claim on the address's domain (the organization speaks for its domain's mailboxes).
 */
export type AddressProof = 'oidc' | 'saml' | 'scim' | 'email_otp' | 'magic_link' | 'password_reset';

/** Where the proof came from, for the audit trail. */
export interface ClaimContext {
  readonly proof: AddressProof;
  /** The OIDC or SAML connection of the proof. */
  readonly connectionId?: string | undefined;
  readonly organizationId?: string | undefined;
  readonly clientId?: string | undefined;
  readonly ipAddress?: string | null | undefined;
}

/**
 * Whether whoever proves the account's address would claim it: the account is active and has an address
 * nobody proved, so another person may hold a credential of it. For every binding of accounts by address
 * (linking, SCIM), which must not hand such an account over with what its holder set up.
 */
export function isClaimable(user: Pick<UserRecord, 'active' | 'emailVerified' | 'emailKey'>): boolean {
  return user.active && !user.emailVerified && user.emailKey !== null;
}

export interface UnverifiedAccountClaimDeps {
  readonly store: AccountClaimStore;
  /** The session-family revocation and the browser session store, as a deactivation ends them. */
  readonly sessions: DirectorySessionControl;
  readonly audit: AuditLog;
  readonly clock: Clock;
}

/**
 * The one place an account whose address was never proved is handed to whoever proves it
 * (docs/decisions/accounts-linking-unverified-accounts.md). Every linker calls `claim` with the account
 * of the address a verified proof named (a provider's verified email, a SAML answer under the
 * organization's domain claim, an emailed code or link, a password reset) before it signs anyone in.
 * For an unverified account, what whoever held it set up without that proof goes: the password, every
 * other linked identity (OIDC and SAML), the TOTP authenticators and recovery codes, the sign-ins in
 * flight, and every token and issuer session; the address is then verified. Memberships stay. Audited
 * `user.unverified_account_claimed` with what was removed (counts only).
 */
export class UnverifiedAccountClaim {
  readonly #deps: UnverifiedAccountClaimDeps;

  constructor(deps: UnverifiedAccountClaimDeps) {
    this.#deps = deps;
  }

  /**
   * The account as the proof leaves it: unchanged when its address is verified already (or it is not
   * claimable), else claimed, its address verified and its password gone. Of concurrent claims of one
   * account exactly one removes anything; the others change nothing.
   */
  async claim(user: UserRecord, context: ClaimContext): Promise<UserRecord> {
    const { emailKey } = user;
    if (emailKey === null || !isClaimable(user)) return user;
    const { store, sessions, audit, clock } = this.#deps;
    const now = clock.now();
    const removed = await store.claim(user.id, emailKey, now);
    if (removed === undefined) return user;
    const sessionsRevoked = await sessions.revokeTokenSessions(
      { userId: user.id },
      'unverified_account_claimed',
    );
    const browserSessionsEnded = await sessions.endBrowserSessions(user.id);
    await audit.record({
      kind: 'user.unverified_account_claimed',
      actorType: 'user',
      actorId: user.id,
      userId: user.id,
      ...(context.organizationId === undefined ? {} : { organizationId: context.organizationId }),
      ...(context.clientId === undefined ? {} : { clientId: context.clientId }),
      ...(context.ipAddress == null ? {} : { ipAddress: context.ipAddress }),
      data: {
        method: context.proof,
        ...(context.connectionId === undefined ? {} : { connectionId: context.connectionId }),
        ...removed,
        sessionsRevoked,
        browserSessionsEnded,
      },
    });
    return { ...user, emailVerified: true, passwordHash: null, updatedAt: now };
  }
}

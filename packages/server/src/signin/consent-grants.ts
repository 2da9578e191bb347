import type { SvcConsentGrant, SvcConsentGrantRevokeResult } from '@svc/contract';
import type { AuditLog } from '../audit/audit-log.js';
import { toIso, type Clock } from '../kernel/clock.js';
import { SvcPublicAuthError } from '../kernel/errors.js';
import type { Ids } from '../kernel/ids.js';
import type { ScopeDisplayNames } from '../oauth/scope-display-names/scope-display-names.js';
import type { ConsentGrantRecord, ConsentGrantStore } from './repository.js';

export interface ConsentGrantsDeps {
  readonly store: ConsentGrantStore;
  /** How the grant lists show each scope (as consent showed it). */
  readonly scopeDisplay: Pick<ScopeDisplayNames, 'describe'>;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}

/** Who revokes a grant, for the audit trail: the user (account helper) or an operator (admin API). */
export interface ConsentActor {
  readonly actorType: 'user' | 'operator' | 'system';
  readonly actorId?: string;
  readonly ipAddress?: string;
}

/**
 * Concurrent approvals race on the unique index (first consent) or on the scope list (merge); a loser
 * reads again and merges into the winner's grant.
 */
const MAX_ATTEMPTS = 10;

/**
 * Consent grants (docs/reference/sign-in.md "Application access and consent": Consent: a non-first-party client without a covering grant reaches the consent
 * view): at most one active grant per user and client; approving more scopes merges them into it;
 * revoking ends it (a later consent starts a new grant). Writes are audited as `oauth.consent.granted`
 * and `oauth.consent.revoked`.
 */
export class ConsentGrants {
  readonly #deps: ConsentGrantsDeps;

  constructor(deps: ConsentGrantsDeps) {
    this.#deps = deps;
  }

  /** The active grant that covers every requested scope, or null (consent needed). */
  async findCovering(
    userId: string,
    clientId: string,
    scopes: readonly string[],
  ): Promise<ConsentGrantRecord | null> {
    const grant = await this.#deps.store.findActive(userId, clientId);
    if (grant === undefined) return null;
    const granted = new Set(grant.scopes);
    return scopes.every((scope) => granted.has(scope)) ? grant : null;
  }

  /** Records an approval: creates the user's grant to the client or merges the scopes into it. */
  async record(userId: string, clientId: string, scopes: readonly string[]): Promise<ConsentGrantRecord> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const now = this.#deps.clock.now();
      const existing = await this.#deps.store.findActive(userId, clientId);
      if (existing === undefined) {
        const grant: ConsentGrantRecord = {
          id: this.#deps.ids.id('cgr'),
          userId,
          clientId,
          scopes: [...new Set(scopes)],
          grantedAt: now,
          updatedAt: now,
          revokedAt: null,
        };
        if (await this.#deps.store.insertIfNoActive(grant)) return this.#recorded(grant, scopes);
        continue;
      }
      const merged = [...new Set([...existing.scopes, ...scopes])];
      if (merged.length === existing.scopes.length) return existing;
      if (await this.#deps.store.updateScopes(existing.id, existing.scopes, merged, now)) {
        return this.#recorded({ ...existing, scopes: merged, updatedAt: now }, scopes);
      }
    }
    throw new Error('The consent grant changed concurrently too often; try again.');
  }

  /** The user's active grants, with client names and scope display names (account and operator lists). */
  async list(userId: string): Promise<SvcConsentGrant[]> {
    const grants = await this.#deps.store.listActive(userId);
    // One look-up for every grant's scopes.
    const details = new Map(
      (await this.#deps.scopeDisplay.describe(grants.flatMap((grant) => grant.scopes))).map((detail) => [
        detail.scope,
        detail,
      ]),
    );
    return grants.map((grant) => ({
      id: grant.id,
      clientId: grant.clientId,
      clientName: grant.clientName,
      scopes: [...grant.scopes],
      scopeDetails: grant.scopes.flatMap((scope) => details.get(scope) ?? []),
      grantedAt: toIso(grant.grantedAt),
      updatedAt: toIso(grant.updatedAt),
    }));
  }

  /**
   * Revokes one of the user's grants. docs/reference/tokens-and-sessions.md "Consent grants of an account": 400 for unknown or already-revoked grant (also for
   * another user's grant, which this user cannot tell from an unknown one).
   */
  async revoke(
    userId: string,
    grantId: string,
    actor: ConsentActor = { actorType: 'user', actorId: userId },
  ): Promise<SvcConsentGrantRevokeResult> {
    const now = this.#deps.clock.now();
    if (!(await this.#deps.store.revoke(userId, grantId, now))) {
      throw new SvcPublicAuthError('invalid_request', 'The grant does not exist or is already revoked.', 400);
    }
    await this.#deps.audit.record({
      kind: 'oauth.consent.revoked',
      ...actor,
      userId,
      data: { grantId },
    });
    return { id: grantId, revokedAt: toIso(now) };
  }

  async #recorded(grant: ConsentGrantRecord, approved: readonly string[]): Promise<ConsentGrantRecord> {
    await this.#deps.audit.record({
      kind: 'oauth.consent.granted',
      actorType: 'user',
      actorId: grant.userId,
      userId: grant.userId,
      clientId: grant.clientId,
      data: { grantId: grant.id, approvedScopes: [...approved], scopes: [...grant.scopes] },
    });
    return grant;
  }
}

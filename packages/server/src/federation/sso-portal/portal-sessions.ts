import type { AuditLog } from '../../audit/audit-log.js';
import { HOUR_MS, type Clock } from '../../kernel/clock.js';
import { sha256Hex } from '../../kernel/crypto.js';
import type { Ids } from '../../kernel/ids.js';
import { lookUpHandedOut, type HandedOutTokenLimit } from '../../ratelimit/handed-out-tokens.js';
import type { PortalTestResult, SsoPortalRepository, SsoPortalSessionRecord } from './repository.js';

/** How long a portal session lasts at most; never past its link's own expiry. */
export const PORTAL_SESSION_LIFETIME_MS = 8 * HOUR_MS;

export interface SsoPortalSessionsDeps {
  readonly repository: SsoPortalRepository;
  /** Setup links that found nothing usable, counted per address with every handed-out token. */
  readonly tokenChecks: HandedOutTokenLimit;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}

/** A started portal session: the cookie's value (shown only here) and when it ends. */
export interface StartedPortalSession {
  readonly secret: string;
  readonly session: SsoPortalSessionRecord;
}

/**
 * Portal sessions of the SSO setup portal: a setup link's token is exchanged once for an
 * organization-scoped session, whose secret (the cookie's value) is stored only as its SHA-256. Every
 * request reads the session from the database with its link, so that revoking the link or the session's
 * expiry holds on every node at once. Audited as `sso_portal.session.started`.
 */
export class SsoPortalSessions {
  readonly #deps: SsoPortalSessionsDeps;

  constructor(deps: SsoPortalSessionsDeps) {
    this.#deps = deps;
  }

  /**
   * Exchanges a setup link's token; undefined when no link is usable (unknown, used, revoked, expired:
   * the page says the same for all). Failed exchanges are counted per IP address (429 past the limit).
   */
  async exchange(token: string, ipAddress: string): Promise<StartedPortalSession | undefined> {
    const { repository, tokenChecks, clock, ids } = this.#deps;
    const now = clock.now();
    const link = await lookUpHandedOut(tokenChecks, ipAddress, () =>
      repository.consumeLink(sha256Hex(token), now),
    );
    if (link === undefined) return undefined;
    const secret = ids.secret();
    const session: SsoPortalSessionRecord = {
      id: ids.id('ssoportal'),
      linkId: link.id,
      organizationId: link.organizationId,
      secretHash: sha256Hex(secret),
      createdAt: now,
      expiresAt: Math.min(now + PORTAL_SESSION_LIFETIME_MS, link.expiresAt),
      testResult: null,
    };
    await repository.insertSession(session);
    await this.#deps.audit.record({
      kind: 'sso_portal.session.started',
      actorType: 'operator',
      actorId: portalActorId(link.id),
      ipAddress,
      organizationId: link.organizationId,
      data: { linkId: link.id, sessionId: session.id },
    });
    return { secret, session };
  }

  /** The live session of a cookie's secret, or undefined (expired, its link revoked, or unknown). */
  find(secret: string): Promise<SsoPortalSessionRecord | undefined> {
    return this.#deps.repository.findLiveSession(sha256Hex(secret), this.#deps.clock.now());
  }

  /** The live session of an id (a test sign-in's continuation names it), or undefined. */
  findById(sessionId: string): Promise<SsoPortalSessionRecord | undefined> {
    return this.#deps.repository.findLiveSessionById(sessionId, this.#deps.clock.now());
  }

  /** Keeps the last test sign-in's result for the session to show. */
  recordTestResult(sessionId: string, result: PortalTestResult): Promise<void> {
    return this.#deps.repository.recordTestResult(sessionId, result);
  }
}

/**
 * The audit actor id of what a customer's admin does in the portal: the setup link the operator handed
 * out, so the trail leads back to who granted it.
 */
export function portalActorId(linkId: string): string {
  return `sso-portal-link:${linkId}`;
}

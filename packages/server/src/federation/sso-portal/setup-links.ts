import type { Page, PageQuery, SsoPortalLinkListInput } from '@svc/contract';
import { actorFields, type AdminActor } from '../../audit/actor.js';
import type { AuditLog } from '../../audit/audit-log.js';
import { DAY_MS, type Clock } from '../../kernel/clock.js';
import { sha256Hex } from '../../kernel/crypto.js';
import { SvcNotFoundError } from '../../kernel/errors.js';
import type { Ids } from '../../kernel/ids.js';
import type { SsoPortalLinkRecord, SsoPortalRepository } from './repository.js';

/** How long a setup link can be opened (docs/reference/federation.md "Links"). */
export const SETUP_LINK_LIFETIME_MS = 7 * DAY_MS;

export interface SsoSetupLinksDeps {
  readonly repository: SsoPortalRepository;
  readonly organizationExists: (organizationId: string) => Promise<boolean>;
  /** The absolute URL of `GET /svc/admin/auth/sso-portal/start`, on the PublicOrigin. */
  readonly startUrl: string;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}

/** A new link: its record, and the URL with the token, which exists only in this answer. */
export interface CreatedSetupLink {
  readonly link: SsoPortalLinkRecord;
  readonly url: string;
}

/**
 * The operators' setup links of the SSO setup portal (docs/reference/federation.md "Links"): each carries an
 * opaque 256-bit token, stored only as its SHA-256, that a customer's admin exchanges once for a portal
 * session of the link's organization. A link expires after {@link SETUP_LINK_LIFETIME_MS}; revoking it
 * refuses its token and ends the sessions it was exchanged for. Audited as `admin.sso_portal_link.created`
 * and `.revoked`.
 */
export class SsoSetupLinks {
  readonly #deps: SsoSetupLinksDeps;

  constructor(deps: SsoSetupLinksDeps) {
    this.#deps = deps;
  }

  async create(organizationId: string, actor?: AdminActor): Promise<CreatedSetupLink> {
    const { repository, clock, ids, startUrl } = this.#deps;
    await this.#requireOrganization(organizationId);
    const token = ids.secret();
    const now = clock.now();
    const link: SsoPortalLinkRecord = {
      id: ids.id('ssolink'),
      organizationId,
      tokenHash: sha256Hex(token),
      createdAt: now,
      expiresAt: now + SETUP_LINK_LIFETIME_MS,
      consumedAt: null,
      revokedAt: null,
    };
    await repository.insertLink(link);
    await this.#record('created', link, actor);
    return { link, url: `${startUrl}?token=${token}` };
  }

  /** The organization's links, newest first (404 for an unknown organization). */
  async list(organizationId: string, page: PageQuery): Promise<Page<SsoPortalLinkRecord>> {
    await this.#requireOrganization(organizationId);
    return this.#deps.repository.listLinks(organizationId, page);
  }

  /** Every organization's links, newest first; `organizationId` narrows them (an unknown one lists none). */
  listAll(query: SsoPortalLinkListInput): Promise<Page<SsoPortalLinkRecord>> {
    return this.#deps.repository.listAllLinks(query);
  }

  /** One link, in any status (404 for an unknown one). */
  async get(id: string): Promise<SsoPortalLinkRecord> {
    const link = await this.#deps.repository.findLink(id);
    if (link === undefined) throw new SvcNotFoundError(`Setup link '${id}' was not found.`);
    return link;
  }

  /** Revokes the link (idempotent): its token is refused and its portal sessions end at once. */
  async revoke(id: string, actor?: AdminActor): Promise<SsoPortalLinkRecord> {
    const before = await this.get(id);
    if (before.revokedAt !== null) return before;
    const revoked = await this.#deps.repository.revokeLink(id, this.#deps.clock.now());
    if (revoked === undefined) throw new SvcNotFoundError(`Setup link '${id}' was not found.`);
    await this.#record('revoked', revoked, actor);
    return revoked;
  }

  async #requireOrganization(organizationId: string): Promise<void> {
    if (!(await this.#deps.organizationExists(organizationId))) {
      throw new SvcNotFoundError(`Organization '${organizationId}' was not found.`);
    }
  }

  #record(suffix: 'created' | 'revoked', link: SsoPortalLinkRecord, actor: AdminActor | undefined) {
    return this.#deps.audit.record({
      kind: `admin.sso_portal_link.${suffix}`,
      ...actorFields(actor),
      organizationId: link.organizationId,
      data: { linkId: link.id, expiresAt: link.expiresAt },
    });
  }
}

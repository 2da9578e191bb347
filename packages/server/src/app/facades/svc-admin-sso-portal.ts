import {
  pageQuerySchema,
  ssoPortalLinkListQuerySchema,
  ssoPortalLinkPathSchema,
  ssoPortalOrganizationPathSchema,
  type Page,
  type SsoPortalLinkListQuery,
  type SvcPageRequest,
  type SvcSsoPortalLink,
  type SvcSsoPortalLinkCreated,
} from '@svc/contract';
import type { AdminActor } from '../../audit/actor.js';
import type { SsoSetupLinks } from '../../federation/sso-portal/setup-links.js';
import { toSvcSsoPortalLink, toSvcSsoPortalLinkCreated } from '../../federation/sso-portal/views.js';
import type { Clock } from '../../kernel/clock.js';
import { validate } from '../../kernel/validation.js';

export interface SvcAdminSsoPortalDeps {
  /** The SSO setup portal's links (hashed, expiring and audited there). */
  readonly ssoPortalLinks: SsoSetupLinks;
  /** A listed link's status (expired or not) is read at this clock's now. */
  readonly clock: Clock;
}

/**
 * The SSO setup portal operations of SvcAdminService (docs/reference/federation.md "The SSO setup portal"):
 * a setup link for a customer's admin, the
 * organization's links (never their tokens), and revoking one. An unknown organization or link is a 404.
 */
export class SvcAdminSsoPortal {
  readonly #links: SsoSetupLinks;
  readonly #clock: Clock;

  constructor(deps: SvcAdminSsoPortalDeps) {
    this.#links = deps.ssoPortalLinks;
    this.#clock = deps.clock;
  }

  /**
   * A setup link to the organization's SSO setup portal. Its `url` carries
   * a one-time token and is answered only here: hand it to the customer's admin.
   */
  async createSsoPortalLinkAsync(
    organizationId: string,
    actor?: AdminActor,
  ): Promise<SvcSsoPortalLinkCreated> {
    const path = validate(ssoPortalOrganizationPathSchema, { organizationId }, 'organization id');
    return toSvcSsoPortalLinkCreated(await this.#links.create(path.organizationId, actor));
  }

  /** The organization's setup links, newest first, with their status. */
  async listSsoPortalLinksAsync(
    organizationId: string,
    request: SvcPageRequest = {},
  ): Promise<Page<SvcSsoPortalLink>> {
    const path = validate(ssoPortalOrganizationPathSchema, { organizationId }, 'organization id');
    const page = await this.#links.list(
      path.organizationId,
      validate(pageQuerySchema, request, 'page request'),
    );
    const now = this.#clock.now();
    return { data: page.data.map((link) => toSvcSsoPortalLink(link, now)), nextCursor: page.nextCursor };
  }

  /** Every organization's setup links, newest first, with their status; `organizationId` narrows them. */
  async listAllSsoPortalLinksAsync(request: SsoPortalLinkListQuery = {}): Promise<Page<SvcSsoPortalLink>> {
    const page = await this.#links.listAll(
      validate(ssoPortalLinkListQuerySchema, request, 'setup link list query'),
    );
    const now = this.#clock.now();
    return { data: page.data.map((link) => toSvcSsoPortalLink(link, now)), nextCursor: page.nextCursor };
  }

  /** One setup link with its status (never its token). */
  async getSsoPortalLinkAsync(linkId: string): Promise<SvcSsoPortalLink> {
    const { id } = validate(ssoPortalLinkPathSchema, { id: linkId }, 'setup link id');
    return toSvcSsoPortalLink(await this.#links.get(id), this.#clock.now());
  }

  /** Revokes a setup link: its token is refused and the portal sessions it opened end at once. */
  async revokeSsoPortalLinkAsync(linkId: string, actor?: AdminActor): Promise<SvcSsoPortalLink> {
    const { id } = validate(ssoPortalLinkPathSchema, { id: linkId }, 'setup link id');
    return toSvcSsoPortalLink(await this.#links.revoke(id, actor), this.#clock.now());
  }
}

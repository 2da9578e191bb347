import type { SvcSsoPortalLink, SvcSsoPortalLinkCreated, SvcSsoPortalTestResult } from '@svc/contract';
import { toIso } from '../../kernel/clock.js';
import type { PortalTestResult, SsoPortalLinkRecord } from './repository.js';
import type { CreatedSetupLink } from './setup-links.js';

/** A new link as the operator API answers it, with the URL shown only then. */
export function toSvcSsoPortalLinkCreated(created: CreatedSetupLink): SvcSsoPortalLinkCreated {
  return { id: created.link.id, url: created.url, expiresAt: toIso(created.link.expiresAt) };
}

/** A link as listed: its status at `now`, never its token (nor its hash). */
export function toSvcSsoPortalLink(link: SsoPortalLinkRecord, now: number): SvcSsoPortalLink {
  const status =
    link.revokedAt !== null
      ? 'revoked'
      : link.consumedAt !== null
        ? 'used'
        : link.expiresAt <= now
          ? 'expired'
          : 'unused';
  return {
    id: link.id,
    organizationId: link.organizationId,
    status,
    createdAt: toIso(link.createdAt),
    expiresAt: toIso(link.expiresAt),
    usedAt: link.consumedAt === null ? null : toIso(link.consumedAt),
    revokedAt: link.revokedAt === null ? null : toIso(link.revokedAt),
  };
}

/** A test sign-in's result as the portal API shows it. */
export function toSvcSsoPortalTestResult(result: PortalTestResult): SvcSsoPortalTestResult {
  return result.outcome === 'accepted'
    ? {
        ...result,
        at: toIso(result.at),
        attributes: Object.fromEntries(Object.entries(result.attributes).map(([k, v]) => [k, [...v]])),
      }
    : { ...result, at: toIso(result.at) };
}

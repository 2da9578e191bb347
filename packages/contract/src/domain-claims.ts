import { z } from 'zod';
import { recordIdSchema, text } from './fields.js';

/**
 * Organization domain claims proven by a DNS TXT record (docs/reference/organizations.md
 *): the operator API bodies and the records of the in-process operations, camelCase. The server
 * normalizes the domain (lower case, IDNA to its ASCII form) and refuses addresses and top-level domains
 * with a 400 naming `domain`; this schema only bounds the text.
 */

/** POST /organizations/{organizationId}/domains. */
export const startDomainVerificationBodySchema = z.object({
  domain: text(1, 512),
});
export type StartDomainVerificationBody = z.input<typeof startDomainVerificationBodySchema>;

/** The `{organizationId}` and `{id}` of a claim's route. */
export const domainClaimPathSchema = z.object({ organizationId: recordIdSchema, id: recordIdSchema });

/** The `{organizationId}` of the list and start routes. */
export const organizationDomainsPathSchema = z.object({ organizationId: recordIdSchema });

/** A domain claim's status (docs/reference/organizations.md "Lifecycle"): pending_ownership (until the record is seen), active, revoked. */
export const domainClaimStatusSchema = z.enum(['pending_ownership', 'active', 'revoked']);
export type SvcDomainClaimStatus = z.output<typeof domainClaimStatusSchema>;

/**
 * What the last DNS look-up found: the expected value (`verified`), no record with the value prefix
 * (`record_missing`), only other values (`value_mismatch`), or no answer (`dns_error`).
 */
export const domainCheckResultSchema = z.enum(['verified', 'record_missing', 'value_mismatch', 'dns_error']);
export type SvcDomainCheckResult = z.output<typeof domainCheckResultSchema>;

/** The TXT record that proves ownership: publish `value` as a TXT record named `name`. */
export const domainOwnershipRecordSchema = z.object({
  type: z.literal('TXT'),
  name: z.string(),
  value: z.string(),
});
export type SvcDomainOwnershipRecord = z.output<typeof domainOwnershipRecordSchema>;

/** A claim as the operator API and the in-process operations answer it. */
export const svcDomainClaimSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  /** The ASCII (punycode) form, lower case. */
  domain: z.string(),
  status: domainClaimStatusSchema,
  record: domainOwnershipRecordSchema,
  /** The last look-up of the record (null before the first); the reason a claim is still pending. */
  lastCheck: z
    .object({ checkedAt: z.iso.datetime(), result: domainCheckResultSchema, message: z.string() })
    .nullable(),
  verifiedAt: z.iso.datetime().nullable(),
  revokedAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type SvcDomainClaim = z.output<typeof svcDomainClaimSchema>;

// ---- In-process requests (docs/reference/organizations.md: organization domain StartVerificationAsync, ConfirmOwnershipAsync) ----

/** StartVerificationAsync: claim `domain` for the organization (or get its claim back). */
export interface SvcStartDomainVerificationRequest {
  readonly organizationId: string;
  readonly domain: string;
}

/** ConfirmOwnershipAsync (and the revocation): one claim of the organization. */
export interface SvcDomainClaimRequest {
  readonly organizationId: string;
  /** The claim's id. */
  readonly id: string;
}

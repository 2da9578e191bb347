import { z } from 'zod';
import { opaqueTokenSchema } from './auth.js';
import { recordIdSchema } from './fields.js';
import { OIDC_PROVIDER_TYPES } from './oidc-connections.js';

/**
 * A provider identity linked to an account (docs/reference/federation.md "Account linking"): the
 * connection (its name and provider type, read in the same query) and the provider's subject, what the
 * provider last asserted, and when.
 */
export const svcLinkedIdentitySchema = z.object({
  id: z.string(),
  connectionId: z.string(),
  connection: z.object({
    id: z.string(),
    displayName: z.string(),
    /** `Custom` (any OpenID provider) or one of the built-in social providers. */
    providerType: z.enum(OIDC_PROVIDER_TYPES),
  }),
  subject: z.string(),
  email: z.string().nullable(),
  emailVerified: z.boolean(),
  linkedAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime(),
});
export type SvcLinkedIdentity = z.output<typeof svcLinkedIdentitySchema>;

/** POST /account/identities/remove: the account's first-party session proves who asks. */
export const svcRemoveLinkedIdentityRequestSchema = z.object({
  refreshToken: opaqueTokenSchema,
  identityId: recordIdSchema,
});
export type SvcRemoveLinkedIdentityRequest = z.input<typeof svcRemoveLinkedIdentityRequestSchema>;

/** The operator route's path: `/users/{userId}/identities/{identityId}`. */
export const svcUserIdentityPathSchema = z.object({ userId: recordIdSchema, identityId: recordIdSchema });

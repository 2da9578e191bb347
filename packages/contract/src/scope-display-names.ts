import { z } from 'zod';
import { scopeTokenSchema } from './admin.js';
import { optionalText, text } from './fields.js';

/**
 * Scope display names (docs/reference/tokens-and-sessions.md "Scopes"): what consent and grant lists
 * call a scope. An entry is `dashboard`-owned when made through the operator API, `code`-owned when set
 * in `createSvc({ scopeDisplayNames })` (docs/reference/tokens-and-sessions.md "Scopes"; docs/decisions/scopes-*.md).
 */

/** Who owns an entry: the operator API (`dashboard`) or the host's code (`code`, closed to the API). */
export const scopeDisplayNameOwnershipSchema = z.enum(['code', 'dashboard']);
export type ScopeDisplayNameOwnership = z.output<typeof scopeDisplayNameOwnershipSchema>;

/** What a user reads for a scope; a description adds a sentence under it. */
const displayName = text(1, 100);
const description = optionalText(text(1, 500));

/**
 * `POST /scope-display-names` and an entry of `createSvc({ scopeDisplayNames })`: any scope an operator
 * may allow a client (an RFC 6749 scope token of at most 200 characters, not `auth:*`).
 */
export const createScopeDisplayNameBodySchema = z.object({
  scope: scopeTokenSchema,
  displayName,
  description,
});
export type CreateScopeDisplayNameBody = z.input<typeof createScopeDisplayNameBodySchema>;
export type CreateScopeDisplayNameInput = z.output<typeof createScopeDisplayNameBodySchema>;

/** `PUT /scope-display-names/{id}`: replaces both texts, so an omitted description removes it. */
export const updateScopeDisplayNameBodySchema = z.object({ displayName, description });
export type UpdateScopeDisplayNameBody = z.input<typeof updateScopeDisplayNameBodySchema>;
export type UpdateScopeDisplayNameInput = z.output<typeof updateScopeDisplayNameBodySchema>;

/** `{id}` of `PUT` and `DELETE /scope-display-names/{id}`: a record id, or `code:` and a scope. */
export const scopeDisplayNamePathSchema = z.object({ id: text(1, 210) });

/**
 * An entry as the operator API answers it. A code-owned entry's id is `code:<scope>` and it has no
 * stored times (null).
 */
export const svcScopeDisplayNameSchema = z.object({
  id: z.string(),
  scope: z.string(),
  displayName: z.string(),
  description: z.string().nullable(),
  ownership: scopeDisplayNameOwnershipSchema,
  createdAt: z.iso.datetime().nullable(),
  updatedAt: z.iso.datetime().nullable(),
});
export type SvcScopeDisplayName = z.output<typeof svcScopeDisplayNameSchema>;

/** The answer of `DELETE /scope-display-names/{id}`. */
export const svcScopeDisplayNameDeleteResultSchema = z.object({ deleted: z.literal(true) });
export type SvcScopeDisplayNameDeleteResult = z.output<typeof svcScopeDisplayNameDeleteResultSchema>;

/**
 * A scope as consent, device approval and grant lists show it: `displayName` is the entry's, else the
 * built-in words of a standard scope (`openid`, `profile`, `email`, `offline_access`), else null (show
 * the raw `scope`); `description` is the entry's, or null.
 */
export const svcScopeDetailSchema = z.object({
  scope: z.string(),
  displayName: z.string().nullable(),
  description: z.string().nullable(),
});
export type SvcScopeDetail = z.output<typeof svcScopeDetailSchema>;

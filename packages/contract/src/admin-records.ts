import { z } from 'zod';
import {
  absoluteUriSchema,
  domainSchema,
  emailSchema,
  roleSchema,
  scopeTokenSchema,
  slugSchema,
  tokenEndpointAuthMethodSchema,
} from './admin.js';
import { clientIdSchema } from './auth.js';
import { clearableText, newPasswordSchema, recordIdSchema, text, uniqueList } from './fields.js';

/**
 * The operator's record routes (docs/reference/operator-api.md): partial updates of users,
 * organizations, memberships and clients. Every field is optional and an omitted field keeps its value;
 * `active: false` deactivates the record and `active: true` reactivates it. As in the create bodies,
 * unknown keys are ignored and a wrong type is a 400 naming the field.
 */

/**
 * PATCH /users/{id}. `password: null` removes the password (the user then signs in without one).
 * `emailVerified` marks the address proved (or not); with a new `email` it applies to the new address.
 * `isOperator` makes or unmakes an operator. Removing the operator flag of the last active operator, or
 * deactivating that operator, is a 409: somebody must still be able to sign in to the console.
 */
export const updateUserBodySchema = z.object({
  displayName: text(1, 200).optional(),
  email: emailSchema.optional(),
  emailVerified: z.boolean().optional(),
  password: newPasswordSchema.nullable().optional(),
  isOperator: z.boolean().optional(),
  active: z.boolean().optional(),
});
export type UpdateUserBody = z.input<typeof updateUserBodySchema>;
export type UpdateUserInput = z.output<typeof updateUserBodySchema>;

/** PATCH /organizations/{id}. `primaryDomain`: a domain as at creation; null (or '') removes it. */
export const updateOrganizationBodySchema = z.object({
  name: text(1, 200).optional(),
  slug: slugSchema.optional(),
  primaryDomain: clearableText(domainSchema),
  active: z.boolean().optional(),
});
export type UpdateOrganizationBody = z.input<typeof updateOrganizationBodySchema>;
export type UpdateOrganizationInput = z.output<typeof updateOrganizationBodySchema>;

/** PATCH /memberships/{id}. */
export const updateMembershipBodySchema = z.object({
  role: roleSchema.optional(),
  active: z.boolean().optional(),
});
export type UpdateMembershipBody = z.input<typeof updateMembershipBodySchema>;
export type UpdateMembershipInput = z.output<typeof updateMembershipBodySchema>;

/**
 * PATCH /clients/{clientId}: the fields of POST /clients except the clientId, which names the client.
 * `tokenEndpointAuthMethod` may move between the two secret methods; a public client cannot become
 * confidential or the reverse (400).
 */
export const updateClientBodySchema = z.object({
  name: text(1, 200).optional(),
  audience: text(1, 2048).optional(),
  redirectUris: uniqueList(absoluteUriSchema, 50).optional(),
  postLogoutRedirectUris: uniqueList(absoluteUriSchema, 50).optional(),
  isFirstParty: z.boolean().optional(),
  allowedScopes: uniqueList(scopeTokenSchema, 64).optional(),
  allowedResources: uniqueList(absoluteUriSchema, 50).optional(),
  tokenEndpointAuthMethod: tokenEndpointAuthMethodSchema.optional(),
  allowDeviceAuthorization: z.boolean().optional(),
  allowClientCredentials: z.boolean().optional(),
  active: z.boolean().optional(),
});
export type UpdateClientBody = z.input<typeof updateClientBodySchema>;
export type UpdateClientInput = z.output<typeof updateClientBodySchema>;

/**
 * What a Client ID Metadata Document decides of its client at every fetch (docs/decisions/
 * client-id-metadata-documents.md): PATCH /clients/{clientId} refuses to change these of a
 * `metadata_document` client (400 naming them), since the next fetch would undo it; operators change the rest.
 */
export const DOCUMENT_DECIDED_CLIENT_FIELDS = [
  'name',
  'redirectUris',
  'allowedScopes',
  'allowDeviceAuthorization',
] as const satisfies readonly (keyof UpdateClientInput)[];

/** The `{id}` of a record's route (an invitation, an FGA record, a setup portal's domain claim…). */
export const recordPathSchema = z.object({ id: recordIdSchema });

/** The `{userId}` of a user's routes (`/users/{userId}`, `/users/{userId}/memberships`…). */
export const userPathSchema = z.object({ userId: recordIdSchema });

/** The `{organizationId}` of an organization's routes (`/organizations/{organizationId}`…). */
export const organizationPathSchema = z.object({ organizationId: recordIdSchema });

/** The `{membershipId}` of `/memberships/{membershipId}`. */
export const membershipPathSchema = z.object({ membershipId: recordIdSchema });

/** The `{clientId}` of a client route. */
export const clientPathSchema = z.object({ clientId: clientIdSchema });

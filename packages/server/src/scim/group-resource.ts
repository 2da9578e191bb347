import { z } from 'zod';
import { externalIdSchema, parseResourceBody } from './resource-body.js';
import { couldBeResourceId } from './resource-id.js';

/** The members a group may have (docs/reference/scim.md "Protocol rules"): at most this many in one group. */
export const MAX_GROUP_MEMBERS = 10_000;

const groupAttributesSchema = z.object({
  displayName: z.string().trim().min(1).max(256),
  externalId: externalIdSchema.optional(),
  members: z
    .array(
      z.object({
        value: z
          .string()
          .min(1)
          .refine(couldBeResourceId, { message: 'is not the id of a user of this connection' }),
        display: z.string().max(2048).optional(),
      }),
    )
    .max(MAX_GROUP_MEMBERS)
    .optional(),
});

export type ScimGroupAttributes = z.output<typeof groupAttributesSchema>;

/** Reads a Group body (POST, PUT, a PATCH result); a bad one is 400 `invalidValue` naming the attribute. */
export function parseGroupAttributes(body: unknown): ScimGroupAttributes {
  return parseResourceBody(groupAttributesSchema, body, 'the group');
}

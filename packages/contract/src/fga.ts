import { z } from 'zod';
import { nullable, recordIdSchema, text, uniqueList } from './fields.js';
import { pageQuerySchema } from './paging.js';

/**
 * Fine-grained authorization (docs/reference/fga.md, "FGA subjects"): the
 * bodies and answers of `/svc/admin/fga/api` and of the in-process `svc.fga`, camelCase. That a named
 * record exists and the tree stays a tree (depth ≤ 32, no cycle) are the server's checks, after these.
 */

/** The deepest a resource may sit: a root is at depth 1 (docs/reference/fga.md). */
export const FGA_MAX_DEPTH = 32;

/** A key of a resource type, permission or role: `document`, `document.read`, `billing:admin`. */
export const fgaKeySchema = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9_.:-]{0,99}$/, {
    message: 'must be 1-100 lower-case letters, digits, or _ . : - (starting with a letter or digit)',
  });

/** The kinds of subject a grant can name. */
export const fgaSubjectTypeSchema = z.enum(['user', 'group', 'service_account', 'agent']);
export type SvcFgaSubjectType = z.output<typeof fgaSubjectTypeSchema>;

/** A subject as docs/reference/fga.md writes it. */
export const fgaSubjectRefSchema = z.object({ type: fgaSubjectTypeSchema, id: recordIdSchema });
export type SvcFgaSubjectRef = z.output<typeof fgaSubjectRefSchema>;

/** POST /resource-types and POST /permissions. */
export const createFgaKeyedBodySchema = z.object({ key: fgaKeySchema, name: text(1, 200) });
export type CreateFgaKeyedBody = z.input<typeof createFgaKeyedBodySchema>;

/** PATCH /resource-types/{id}, /permissions/{id}, /groups/{id}, /subjects/{id}: the key never changes. */
export const renameFgaBodySchema = z.object({ name: text(1, 200) });

/** POST /roles. */
export const createFgaRoleBodySchema = createFgaKeyedBodySchema.extend({
  permissionKeys: uniqueList(fgaKeySchema, 200),
});
export type CreateFgaRoleBody = z.input<typeof createFgaRoleBodySchema>;

/** PATCH /roles/{id}: what is given changes. */
export const updateFgaRoleBodySchema = z.object({
  name: text(1, 200).optional(),
  permissionKeys: uniqueList(fgaKeySchema, 200).optional(),
});

/** POST /resources; a resource without a parent is a root. */
export const createFgaResourceBodySchema = z.object({
  name: text(1, 200),
  typeId: recordIdSchema,
  parentId: nullable(recordIdSchema),
});
export type CreateFgaResourceBody = z.input<typeof createFgaResourceBodySchema>;

/** PATCH /resources/{id}: rename, or move under another parent (null: make it a root). */
export const updateFgaResourceBodySchema = z.object({
  name: text(1, 200).optional(),
  parentId: recordIdSchema.nullable().optional(),
});

/** POST /groups. */
export const createFgaGroupBodySchema = z.object({
  name: text(1, 200),
  organizationId: nullable(recordIdSchema),
});

/** POST /subjects: service accounts and agents (users and groups have their own routes). */
export const createFgaSubjectBodySchema = z.object({
  type: z.enum(['service_account', 'agent']),
  name: text(1, 200),
});

/**
 * A subject and a resource. `subjectType` may be left out: subject ids are unique across the kinds
 * (their prefixes differ), and the server finds the kind.
 */
const subjectOnResourceSchema = z.object({
  subjectId: recordIdSchema,
  subjectType: fgaSubjectTypeSchema.optional(),
  resourceId: recordIdSchema,
});

/** POST /grants. */
export const createFgaGrantBodySchema = subjectOnResourceSchema.extend({ roleId: recordIdSchema });
export type CreateFgaGrantBody = z.input<typeof createFgaGrantBodySchema>;

/** The in-process grant (`svc.fga.grantAsync`): the body, and the source that manages the grant. */
export const fgaGrantRequestSchema = createFgaGrantBodySchema.extend({
  managedBy: text(1, 200).optional(),
});

/** The in-process revocation of a source's grants (`svc.fga.revokeManagedGrantsAsync`). */
export const fgaManagedRevocationSchema = z.object({
  managedBy: text(1, 200),
  subjectId: recordIdSchema.optional(),
});

/** POST /access-test. */
export const fgaAccessTestBodySchema = subjectOnResourceSchema.extend({ permissionKey: fgaKeySchema });
export type FgaAccessTestBody = z.input<typeof fgaAccessTestBodySchema>;

/** GET /resources: all of them, or the children of `parentId` (`parentId=` empty: the roots). */
export const fgaResourceQuerySchema = pageQuerySchema.extend({
  parentId: z.union([z.literal(''), recordIdSchema]).optional(),
  typeId: recordIdSchema.optional(),
});

/** GET /grants, filtered by any of these. */
export const fgaGrantQuerySchema = pageQuerySchema.extend({
  subjectId: recordIdSchema.optional(),
  roleId: recordIdSchema.optional(),
  resourceId: recordIdSchema.optional(),
  managedBy: text(1, 200).optional(),
});

/** GET /subjects, optionally of one kind. */
export const fgaSubjectQuerySchema = pageQuerySchema.extend({ type: fgaSubjectTypeSchema.optional() });

/** The path of `POST` and `DELETE /groups/{id}/members/{userId}`: the group and the user. */
export const fgaGroupMemberPathSchema = z.object({ id: recordIdSchema, userId: recordIdSchema });

/** A resource type or a permission. */
export interface SvcFgaKeyedRecord {
  id: string;
  key: string;
  name: string;
  createdAt: string;
  updatedAt: string;
}

export interface SvcFgaRole extends SvcFgaKeyedRecord {
  permissionKeys: string[];
}

export interface SvcFgaResource {
  id: string;
  name: string;
  typeId: string;
  parentId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** GET /resources/{id}: the resource with its ancestors, parent first, root last. */
export interface SvcFgaResourceDetail extends SvcFgaResource {
  ancestorIds: string[];
}

export interface SvcFgaGroup {
  id: string;
  name: string;
  organizationId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface SvcFgaGroupMember {
  groupId: string;
  userId: string;
  createdAt: string;
}

/** A subject of GET /subjects: `name` is a user's display name, or the group's or account's name. */
export interface SvcFgaSubject {
  type: SvcFgaSubjectType;
  id: string;
  name: string;
  /** A group's organization; null for the other kinds. */
  organizationId: string | null;
  createdAt: string;
}

/**
 * A grant: the subject holds the role on the resource and everything under it. `managedBy` is
 * `operator` for grants made through the API or in process without a source, or the source that
 * manages it (a SCIM connection's `scim:<connectionId>`), which alone revokes what it made.
 */
export interface SvcFgaGrant {
  id: string;
  subject: SvcFgaSubjectRef;
  roleId: string;
  resourceId: string;
  managedBy: string;
  createdAt: string;
}

/**
 * Why access is allowed: the grant, the role that carries the permission, the resource the grant is
 * on, the group through which the subject holds it (null when held directly), and the path from the
 * resource asked about up to the one granted on (one element when the grant is on that resource).
 */
export interface SvcFgaExplanation {
  grantId: string;
  roleId: string;
  roleKey: string;
  grantedOnResourceId: string;
  viaGroupId: string | null;
  path: string[];
}

/** POST /access-test. */
export interface SvcFgaAccessTestResult {
  allowed: boolean;
  explanation: SvcFgaExplanation | null;
}

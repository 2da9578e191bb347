import { z } from 'zod';
import { fgaSubjectRefSchema, fgaSubjectTypeSchema } from './fga.js';

/**
 * The answers of `/svc/admin/fga/api` as schemas (docs/reference/fga.md "Routes"), for clients that
 * check what they read: the same shapes as the interfaces of fga.ts.
 */

const stamps = { createdAt: z.iso.datetime(), updatedAt: z.iso.datetime() };

/** A resource type or a permission. */
export const svcFgaKeyedRecordSchema = z.object({
  id: z.string(),
  key: z.string(),
  name: z.string(),
  ...stamps,
});

export const svcFgaRoleSchema = svcFgaKeyedRecordSchema.extend({ permissionKeys: z.array(z.string()) });

export const svcFgaResourceSchema = z.object({
  id: z.string(),
  name: z.string(),
  typeId: z.string(),
  parentId: z.string().nullable(),
  ...stamps,
});

export const svcFgaGroupSchema = z.object({
  id: z.string(),
  name: z.string(),
  organizationId: z.string().nullable(),
  ...stamps,
});

export const svcFgaGroupMemberSchema = z.object({
  groupId: z.string(),
  userId: z.string(),
  createdAt: z.iso.datetime(),
});

export const svcFgaSubjectSchema = z.object({
  type: fgaSubjectTypeSchema,
  id: z.string(),
  name: z.string(),
  organizationId: z.string().nullable(),
  createdAt: z.iso.datetime(),
});

export const svcFgaGrantSchema = z.object({
  id: z.string(),
  subject: fgaSubjectRefSchema,
  roleId: z.string(),
  resourceId: z.string(),
  managedBy: z.string(),
  createdAt: z.iso.datetime(),
});

export const svcFgaAccessTestResultSchema = z.object({
  allowed: z.boolean(),
  explanation: z
    .object({
      grantId: z.string(),
      roleId: z.string(),
      roleKey: z.string(),
      grantedOnResourceId: z.string(),
      viaGroupId: z.string().nullable(),
      path: z.array(z.string()),
    })
    .nullable(),
});

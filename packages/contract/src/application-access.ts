import { z } from 'zod';
import { roleSchema } from './admin.js';
import { applicationAccessModeSchema } from './access-modes.js';
import { clientIdSchema } from './auth.js';
import { recordIdSchema } from './fields.js';

/**
 * Application access (docs/reference/application-access.md): which users may use a client. Operator API bodies
 * and answers under `/svc/admin/auth/api/applications/{applicationId}`, camelCase.
 */

/** POST /applications/{applicationId}/access-mode. */
export const setApplicationAccessModeBodySchema = z.object({ mode: applicationAccessModeSchema });
export type SetApplicationAccessModeBody = z.input<typeof setApplicationAccessModeBodySchema>;

export const ASSIGNMENT_PRINCIPAL_TYPES = [
  'organization',
  'user',
  'group',
  'role',
  'service_account',
  'agent',
] as const;
export type AssignmentPrincipalType = (typeof ASSIGNMENT_PRINCIPAL_TYPES)[number];

export const assignmentEffectSchema = z.enum(['allow', 'deny'], {
  message: "effect must be 'allow' or 'deny'",
});
export type AssignmentEffect = z.output<typeof assignmentEffectSchema>;

/**
 * POST /applications/{applicationId}/assignments, with the fields each principal type requires (docs/reference/application-access.md):
 * organization (organizationId or principalId), user, group, service_account and agent (principalId),
 * role (organizationId and roleKey, a membership role). `effect` defaults to allow; a deny always wins.
 * The answer names the organization of an organization assignment in both fields.
 */
export const createApplicationAssignmentBodySchema = z
  .object({
    principalType: z.enum(ASSIGNMENT_PRINCIPAL_TYPES, {
      message: `principalType must be one of ${ASSIGNMENT_PRINCIPAL_TYPES.join(', ')}`,
    }),
    principalId: recordIdSchema.optional(),
    organizationId: recordIdSchema.optional(),
    roleKey: roleSchema.optional(),
    effect: assignmentEffectSchema.default('allow'),
  })
  .superRefine((body, ctx) => {
    const refuse = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    const stray = (path: 'principalId' | 'organizationId' | 'roleKey') => {
      if (body[path] !== undefined)
        refuse(path, `${path} does not apply to a ${body.principalType} assignment`);
    };
    switch (body.principalType) {
      case 'organization':
        if (body.organizationId === undefined && body.principalId === undefined) {
          refuse('organizationId', 'an organization assignment needs organizationId (or principalId)');
        } else if (
          body.organizationId !== undefined &&
          body.principalId !== undefined &&
          body.organizationId !== body.principalId
        ) {
          refuse('principalId', 'principalId and organizationId must name the same organization');
        }
        stray('roleKey');
        return;
      case 'role':
        if (body.organizationId === undefined)
          refuse('organizationId', 'a role assignment needs organizationId');
        if (body.roleKey === undefined) refuse('roleKey', 'a role assignment needs roleKey');
        stray('principalId');
        return;
      default:
        if (body.principalId === undefined) {
          refuse('principalId', `a ${body.principalType} assignment needs principalId`);
        }
        stray('organizationId');
        stray('roleKey');
    }
  })
  .transform((body) => {
    const byOrganization = body.principalType === 'organization';
    // An organization assignment names its organization in both fields, whichever one the body used.
    const organizationId = byOrganization
      ? (body.organizationId ?? body.principalId ?? null)
      : (body.organizationId ?? null);
    return {
      principalType: body.principalType,
      principalId: byOrganization ? organizationId : (body.principalId ?? null),
      organizationId,
      roleKey: body.roleKey ?? null,
      effect: body.effect,
    };
  });
export type CreateApplicationAssignmentBody = z.input<typeof createApplicationAssignmentBodySchema>;
export type CreateApplicationAssignmentInput = z.output<typeof createApplicationAssignmentBodySchema>;

const timestamp = z.iso.datetime();

/**
 * What an assignment's principal is called, read with it: a user's display name and email, an
 * organization's name and slug (a role assignment's organization's), a group's, service account's or
 * agent's name. Null when the record is gone.
 */
export const svcAssignmentPrincipalSchema = z.object({
  name: z.string(),
  email: z.string().nullable(),
  slug: z.string().nullable(),
});
export type SvcAssignmentPrincipal = z.output<typeof svcAssignmentPrincipalSchema>;

export const svcApplicationAssignmentSchema = z.object({
  id: z.string(),
  /** The client's record id. */
  applicationId: z.string(),
  clientId: z.string(),
  principalType: z.enum(ASSIGNMENT_PRINCIPAL_TYPES),
  principalId: z.string().nullable(),
  organizationId: z.string().nullable(),
  roleKey: z.string().nullable(),
  principal: svcAssignmentPrincipalSchema.nullable(),
  effect: assignmentEffectSchema,
  createdAt: timestamp,
});
export type SvcApplicationAssignment = z.output<typeof svcApplicationAssignmentSchema>;

/** GET /applications/{applicationId}/assignments: the access mode and every assignment, newest first. */
export const svcApplicationAccessSchema = z.object({
  applicationId: z.string(),
  clientId: z.string(),
  mode: applicationAccessModeSchema,
  data: z.array(svcApplicationAssignmentSchema),
});
export type SvcApplicationAccess = z.output<typeof svcApplicationAccessSchema>;

/**
 * GET /applications/{applicationId}/access/check: a user (`userId`, with the sign-in's `organizationId`
 * when there is one), or a service account or agent.
 */
export const applicationAccessCheckQuerySchema = z
  .object({
    userId: recordIdSchema.optional(),
    organizationId: recordIdSchema.optional(),
    serviceAccountId: recordIdSchema.optional(),
    agentId: recordIdSchema.optional(),
  })
  .refine(
    (query) =>
      [query.userId, query.serviceAccountId, query.agentId].filter((id) => id !== undefined).length === 1,
    { message: 'name exactly one subject: userId, serviceAccountId or agentId' },
  );
export type ApplicationAccessCheckQuery = z.output<typeof applicationAccessCheckQuerySchema>;

/** Why a check decided as it did: the rule, and the assignment it matched (when one did). */
export const accessReasonSchema = z.object({
  code: z.string(),
  message: z.string(),
  assignmentId: z.string().optional(),
});
export type SvcAccessReason = z.output<typeof accessReasonSchema>;

export const ACCESS_DECISIONS = [
  'allowed_by_mode',
  'allowed_by_assignment',
  'denied_by_assignment',
  'not_assigned',
  'not_internal',
  'not_a_member',
  'application_disabled',
  'application_inactive',
] as const;
export type ApplicationAccessDecision = (typeof ACCESS_DECISIONS)[number];

export const svcApplicationAccessCheckSchema = z.object({
  allowed: z.boolean(),
  decision: z.enum(ACCESS_DECISIONS),
  reasons: z.array(accessReasonSchema),
});
export type SvcApplicationAccessCheck = z.output<typeof svcApplicationAccessCheckSchema>;

const applicationSummary = {
  applicationId: z.string(),
  clientId: z.string(),
  name: z.string(),
  mode: applicationAccessModeSchema,
};

/**
 * GET /organizations/{organizationId}/applications: the applications its members may use; `members` is
 * `all` when the organization's own rules let every member in, `some` when only members of a role are.
 */
export const svcOrganizationApplicationSchema = z.object({
  ...applicationSummary,
  members: z.enum(['all', 'some']),
});
export type SvcOrganizationApplication = z.output<typeof svcOrganizationApplicationSchema>;

/**
 * GET /users/{userId}/applications: the applications the user may use, in which of their organizations,
 * and whether a sign-in without an organization may.
 */
export const svcUserApplicationSchema = z.object({
  ...applicationSummary,
  organizationIds: z.array(z.string()),
  withoutOrganization: z.boolean(),
});
export type SvcUserApplication = z.output<typeof svcUserApplicationSchema>;

/** The `{applicationId}` of an application route: the client's record id or its clientId. */
export const applicationPathSchema = z.object({ applicationId: clientIdSchema });

/** The `{applicationId}` and `{assignmentId}` of DELETE …/assignments/{assignmentId}. */
export const applicationAssignmentPathSchema = z.object({
  applicationId: clientIdSchema,
  assignmentId: recordIdSchema,
});

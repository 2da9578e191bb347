import {
  pageSchema,
  svcFgaKeyedRecordSchema,
  svcFgaResourceSchema,
  svcFgaRoleSchema,
  svcFgaSubjectSchema,
} from '@svc/contract';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiGet } from '../../api/client.js';

const segment = encodeURIComponent;

/** The FGA operator API paths (`/svc/admin/fga/api`). */
export const fgaPaths = {
  resourceTypes: '/resource-types',
  permissions: '/permissions',
  roles: '/roles',
  resources: '/resources',
  resource: (id: string) => `/resources/${segment(id)}`,
  groups: '/groups',
  group: (id: string) => `/groups/${segment(id)}`,
  members: (groupId: string) => `/groups/${segment(groupId)}/members`,
  member: (groupId: string, userId: string) => `/groups/${segment(groupId)}/members/${segment(userId)}`,
  subjects: '/subjects',
  grants: '/grants',
  grant: (id: string) => `/grants/${segment(id)}`,
  accessTest: '/access-test',
} as const;

/**
 * Every record of an FGA list, all pages read: the model's lists are small, and the tree, the pickers and
 * the names in other tables need all of them at once.
 */
export function useFgaAll<S extends z.ZodType>(path: string, item: S) {
  type Listed = { data: z.output<S>[]; nextCursor: string | null };
  const parser = pageSchema(item) as unknown as z.ZodType<Listed>;
  return useQuery({
    queryKey: ['fga', path, { all: true }] as const,
    queryFn: async () => {
      const all: z.output<S>[] = [];
      let cursor: string | null = null;
      do {
        const page: Listed = await apiGet('fga', path, parser, { limit: 200, cursor });
        all.push(...page.data);
        cursor = page.nextCursor;
      } while (cursor !== null);
      return all;
    },
  });
}

export const useResourceTypes = () => useFgaAll(fgaPaths.resourceTypes, svcFgaKeyedRecordSchema);
export const usePermissions = () => useFgaAll(fgaPaths.permissions, svcFgaKeyedRecordSchema);
export const useRoles = () => useFgaAll(fgaPaths.roles, svcFgaRoleSchema);
export const useResources = () => useFgaAll(fgaPaths.resources, svcFgaResourceSchema);
// GET /groups answers each group as a subject (no updatedAt), as GET /subjects does.
export const useGroups = () => useFgaAll(fgaPaths.groups, svcFgaSubjectSchema);
export const useSubjects = () => useFgaAll(fgaPaths.subjects, svcFgaSubjectSchema);

/** A name by id from one of those lists, or the id itself while it loads or when it is gone. */
export function nameOf(
  records: readonly { readonly id: string; readonly name: string }[] | undefined,
  id: string,
): string {
  return records?.find((record) => record.id === id)?.name ?? id;
}

/** The roles as a select's choices, named with their key (`Editor (editor)`). */
export function roleChoices(roles: readonly { id: string; name: string; key: string }[] | undefined) {
  return (roles ?? []).map((role) => ({ id: role.id, label: `${role.name} (${role.key})` }));
}

/** The resources as a select's choices, by name. */
export function resourceChoices(resources: readonly { id: string; name: string }[] | undefined) {
  return (resources ?? []).map((resource) => ({ id: resource.id, label: resource.name }));
}

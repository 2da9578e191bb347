import { z } from 'zod';

/**
 * Who may use an application (docs/reference/application-access.md); a module of its own so that both the
 * client record (admin.ts) and the access API (application-access.ts) can name it.
 *
 * - `all_organizations`: every active user (the default; a client made before access modes existed)
 * - `selected_organizations`: sign-ins in an organization that an `organization` assignment allows
 * - `selected_users_groups_roles`: users that a `user`, `group` or `role` assignment allows
 * - `internal_only`: operators only
 * - `disabled`: nobody; existing sessions fail at their next refresh
 */
export const APPLICATION_ACCESS_MODES = [
  'all_organizations',
  'selected_organizations',
  'selected_users_groups_roles',
  'internal_only',
  'disabled',
] as const;
export const applicationAccessModeSchema = z.enum(APPLICATION_ACCESS_MODES, {
  message: `mode must be one of ${APPLICATION_ACCESS_MODES.join(', ')}`,
});
export type ApplicationAccessMode = z.output<typeof applicationAccessModeSchema>;

import type { ApplicationAccessMode } from '@svc/contract';

/** What each access mode is called in the console. */
export const ACCESS_MODE_LABELS: Readonly<Record<ApplicationAccessMode, string>> = {
  all_organizations: 'Everyone',
  selected_organizations: 'Selected organizations',
  selected_users_groups_roles: 'Selected users, groups and roles',
  internal_only: 'Operators only',
  disabled: 'Nobody',
};

/** Who each mode admits (docs/reference/application-access.md); a deny assignment wins in every mode. */
export const ACCESS_MODE_DESCRIPTIONS: Readonly<Record<ApplicationAccessMode, string>> = {
  all_organizations: 'Every active user may use it (the default).',
  selected_organizations:
    'Only sign-ins within an organization that an allow names; a sign-in without an organization is refused.',
  selected_users_groups_roles: 'Only users (or groups, roles, service accounts, agents) that an allow names.',
  internal_only: 'Only operators of this Svc.',
  disabled: 'Nobody; existing sessions fail at their next refresh.',
};

const segment = encodeURIComponent;

/** The operator API paths of directory sync (`/svc/admin/auth/api`). */
export const scimPaths = {
  connections: (organizationId: string) => `/organizations/${segment(organizationId)}/scim-connections`,
  connection: (id: string) => `/scim-connections/${segment(id)}`,
  mappings: (connectionId: string) => `/scim-connections/${segment(connectionId)}/mappings`,
  mapping: (id: string) => `/scim-mappings/${segment(id)}`,
  events: (connectionId: string) => `/scim-connections/${segment(connectionId)}/sync-events`,
} as const;

/** The console's page of a connection. */
export const scimConnectionHref = (organizationId: string, connectionId: string) =>
  `/organizations/${segment(organizationId)}/scim/${segment(connectionId)}`;

/** What a boundary or a rule's boundary status means, in words. */
export const BOUNDARY_LABELS: Readonly<Record<string, string>> = {
  configured: 'Inside the boundary',
  missing: 'No grant boundary',
  not_found: 'Boundary resource not found',
  outside_boundary: 'Outside the boundary',
  hierarchy_invalid: 'Resource tree invalid',
};

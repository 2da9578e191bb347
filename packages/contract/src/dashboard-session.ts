import { z } from 'zod';

/**
 * GET {dashboard base}/api/session: who is signed in to the bundled dashboards, and the antiforgery token
 * their state-changing calls send as `x-svc-csrf` (docs/reference/operator-api.md "Console sign-in and
 * session"). Without a live session the route answers 404.
 */
export const svcDashboardSessionSchema = z.object({
  user: z.object({ id: z.string(), displayName: z.string(), email: z.string().nullable() }),
  csrfToken: z.string(),
  expiresAt: z.iso.datetime(),
});
export type SvcDashboardSession = z.output<typeof svcDashboardSessionSchema>;

/**
 * The console's top-level pages below the dashboard base (`/svc/users/usr_…`): the app routes them, and
 * the server answers the app's page for each so that every list and record has a link of its own.
 */
export const DASHBOARD_SECTIONS = [
  'overview',
  'organizations',
  'users',
  'applications',
  'policies',
  'sessions',
  'audit',
  'email',
  'authorization',
  'calendar',
] as const;
export type DashboardSection = (typeof DASHBOARD_SECTIONS)[number];

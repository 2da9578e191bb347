import { createRoute, createRouter, redirect } from '@tanstack/react-router';
import { DASHBOARD_BASE } from './api/base.js';
import { rootRoute } from './shell/root-route.js';
import { applicationRoutes } from './views/applications/routes.js';
import { auditRoutes } from './views/audit/routes.js';
import { authorizationRoutes } from './views/authorization/routes.js';
import { calendarRoutes } from './views/calendar/routes.js';
import { emailRoutes } from './views/email/routes.js';
import { organizationRoutes } from './views/organizations/routes.js';
import { overviewRoutes } from './views/overview/routes.js';
import { policyRoutes } from './views/policies/routes.js';
import { sessionRoutes } from './views/sessions/routes.js';
import { userRoutes } from './views/users/routes.js';

const homeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/overview', replace: true });
  },
});

/**
 * The console's pages below the dashboard base. Each section's routes live with its views; their first
 * path segments are the contract's DASHBOARD_SECTIONS, which the server answers with the app's page.
 */
const routeTree = rootRoute.addChildren([
  homeRoute,
  ...overviewRoutes,
  ...organizationRoutes,
  ...userRoutes,
  ...calendarRoutes,
  ...applicationRoutes,
  ...policyRoutes,
  ...sessionRoutes,
  ...authorizationRoutes,
  ...auditRoutes,
  ...emailRoutes,
]);

export const router = createRouter({ routeTree, basepath: DASHBOARD_BASE, scrollRestoration: true });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

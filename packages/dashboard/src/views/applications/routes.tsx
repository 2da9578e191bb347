import { createRoute } from '@tanstack/react-router';
import { rootRoute } from '../../shell/root-route.js';
import { ApplicationPage } from './application-page.js';
import { applicationsSearchSchema } from './applications-search.js';
import { ApplicationsPage } from './applications-page.js';

export const applicationRoutes = [
  createRoute({
    getParentRoute: () => rootRoute,
    path: 'applications',
    validateSearch: applicationsSearchSchema,
    component: ApplicationsPage,
  }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: 'applications/$clientId',
    component: ApplicationPage,
  }),
] as const;

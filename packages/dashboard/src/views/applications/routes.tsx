import { createRoute } from '@tanstack/react-router';
import { rootRoute } from '../../shell/root-route.js';
import { listSearchSchema } from '../list-search.js';
import { ApplicationsPage } from './applications-page.js';

export const applicationRoutes = [
  createRoute({
    getParentRoute: () => rootRoute,
    path: 'applications',
    validateSearch: listSearchSchema,
    component: ApplicationsPage,
  }),
] as const;

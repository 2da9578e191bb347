import { createRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { rootRoute } from '../../shell/root-route.js';
import { listSearchSchema } from '../list-search.js';
import { ApplicationPage } from './application-page.js';
import { ApplicationsPage } from './applications-page.js';

/** The list's filters, and which view of the page is open (`?view=scopes`: the scope display names). */
export const applicationsSearchSchema = listSearchSchema.extend({
  view: z.enum(['applications', 'scopes']).optional().catch(undefined),
});

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

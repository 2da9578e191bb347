import { createRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { rootRoute } from '../../shell/root-route.js';
import { listSearchSchema } from '../list-search.js';
import { SessionsPage } from './sessions-page.js';

/** The list's filters in its link: the user's email, an organization, an application, the status. */
export const sessionsSearchSchema = listSearchSchema.omit({ q: true }).extend({
  email: z.string().max(320).optional().catch(undefined),
  organizationId: z.string().max(200).optional().catch(undefined),
  clientId: z.string().max(256).optional().catch(undefined),
});

export const sessionRoutes = [
  createRoute({
    getParentRoute: () => rootRoute,
    path: 'sessions',
    validateSearch: sessionsSearchSchema,
    component: SessionsPage,
  }),
] as const;

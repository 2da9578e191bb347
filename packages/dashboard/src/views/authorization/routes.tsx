import { createRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { rootRoute } from '../../shell/root-route.js';
import { AuthorizationPage } from './authorization-page.js';

export const AUTHORIZATION_TABS = ['resources', 'model', 'groups', 'grants', 'access'] as const;
export type AuthorizationTab = (typeof AUTHORIZATION_TABS)[number];

/** The tab shown, and the resource the tree and the grants are about (`resource`). */
const authorizationSearchSchema = z.object({
  tab: z.enum(AUTHORIZATION_TABS).optional().catch(undefined),
  resource: z.string().optional().catch(undefined),
});

export const authorizationRoutes = [
  createRoute({
    getParentRoute: () => rootRoute,
    path: 'authorization',
    validateSearch: authorizationSearchSchema,
    component: AuthorizationPage,
  }),
] as const;

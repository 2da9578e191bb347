import { createRoute } from '@tanstack/react-router';
import { rootRoute } from '../../shell/root-route.js';
import { PoliciesPage } from './policies-page.js';

export const policyRoutes = [
  createRoute({ getParentRoute: () => rootRoute, path: 'policies', component: PoliciesPage }),
] as const;

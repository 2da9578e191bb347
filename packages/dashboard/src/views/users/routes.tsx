import { createRoute } from '@tanstack/react-router';
import { rootRoute } from '../../shell/root-route.js';
import { listSearchSchema } from '../list-search.js';
import { UsersPage } from './users-page.js';

export const userRoutes = [
  createRoute({
    getParentRoute: () => rootRoute,
    path: 'users',
    validateSearch: listSearchSchema,
    component: UsersPage,
  }),
] as const;

import { createRoute } from '@tanstack/react-router';
import { rootRoute } from '../../shell/root-route.js';
import { SessionsPage } from './sessions-page.js';

export const sessionRoutes = [
  createRoute({ getParentRoute: () => rootRoute, path: 'sessions', component: SessionsPage }),
] as const;

import { createRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { rootRoute } from '../../shell/root-route.js';
import { OverviewPage } from './overview-page.js';

/** `/overview?window=7d`: the window is in the link; an unknown one falls back to the last 24 hours. */
export const overviewSearchSchema = z.object({
  window: z.enum(['24h', '7d']).default('24h').catch('24h'),
});

export const overviewRoutes = [
  createRoute({
    getParentRoute: () => rootRoute,
    path: 'overview',
    validateSearch: overviewSearchSchema,
    component: OverviewPage,
  }),
] as const;

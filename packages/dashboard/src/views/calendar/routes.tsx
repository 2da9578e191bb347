import { createRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { rootRoute } from '../../shell/root-route.js';
import { CalendarPage } from './calendar-page.js';

/** The connections of one user (`userId`), or everyone's. */
const calendarSearchSchema = z.object({ userId: z.string().optional().catch(undefined) });

export const calendarRoutes = [
  createRoute({
    getParentRoute: () => rootRoute,
    path: 'calendar',
    validateSearch: calendarSearchSchema,
    component: CalendarPage,
  }),
] as const;

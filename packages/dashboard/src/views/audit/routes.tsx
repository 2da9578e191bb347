import { createRoute } from '@tanstack/react-router';
import { rootRoute } from '../../shell/root-route.js';
import { AuditEventPage } from './audit-event-page.js';
import { AuditPage } from './audit-page.js';
import { auditSearchSchema } from './audit-search.js';

export const auditRoutes = [
  createRoute({
    getParentRoute: () => rootRoute,
    path: 'audit',
    validateSearch: auditSearchSchema,
    component: AuditPage,
  }),
  createRoute({ getParentRoute: () => rootRoute, path: 'audit/$eventId', component: AuditEventPage }),
] as const;

import { createRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { rootRoute } from '../../shell/root-route.js';
import { listSearchSchema } from '../list-search.js';
import { OrganizationPage } from './organization-page.js';
import { OrganizationsPage } from './organizations-page.js';

export const ORGANIZATION_TABS = ['members', 'invitations', 'mfa', 'domains'] as const;
export type OrganizationTab = (typeof ORGANIZATION_TABS)[number];

/** An organization's page: the tab shown, and the members list's search and status (`q`, `status`). */
const organizationSearchSchema = listSearchSchema.extend({
  tab: z.enum(ORGANIZATION_TABS).optional().catch(undefined),
});

export const organizationRoutes = [
  createRoute({
    getParentRoute: () => rootRoute,
    path: 'organizations',
    validateSearch: listSearchSchema,
    component: OrganizationsPage,
  }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: 'organizations/$organizationId',
    validateSearch: organizationSearchSchema,
    component: OrganizationPage,
  }),
] as const;

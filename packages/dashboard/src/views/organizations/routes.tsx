import { createRoute } from '@tanstack/react-router';
import { INVITATION_STATUSES } from '@svc/contract';
import { z } from 'zod';
import { rootRoute } from '../../shell/root-route.js';
import { listSearchSchema } from '../list-search.js';
import { OrganizationPage } from './organization-page.js';
import { OrganizationsPage } from './organizations-page.js';
import { ScimConnectionPage } from './scim/scim-connection-page.js';
import { OidcConnectionPage } from './sso/oidc-connection-page.js';
import { SamlConnectionPage } from './sso/saml-connection-page.js';

export const ORGANIZATION_TABS = [
  'members',
  'invitations',
  'mfa',
  'sso',
  'domains',
  'setup-links',
  'directory-sync',
] as const;
export type OrganizationTab = (typeof ORGANIZATION_TABS)[number];

/**
 * An organization's page: the tab shown, the members list's search and status (`q`, `status`), and the
 * invitations' status (`invitationStatus`).
 */
const organizationSearchSchema = listSearchSchema.extend({
  tab: z.enum(ORGANIZATION_TABS).optional().catch(undefined),
  invitationStatus: z.enum(INVITATION_STATUSES).optional().catch(undefined),
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
  createRoute({
    getParentRoute: () => rootRoute,
    path: 'organizations/$organizationId/saml/$connectionId',
    component: SamlConnectionPage,
  }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: 'organizations/$organizationId/oidc/$connectionId',
    component: OidcConnectionPage,
  }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: 'organizations/$organizationId/scim/$connectionId',
    component: ScimConnectionPage,
  }),
] as const;

import { createRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { rootRoute } from '../../shell/root-route.js';
import { listSearchSchema } from '../list-search.js';
import { UserPage } from './user-page.js';
import { UsersPage } from './users-page.js';

/** The users list: the search and status of every list, an organization, an exact email. */
const userListSearchSchema = listSearchSchema.extend({
  organizationId: z.string().min(1).max(200).optional().catch(undefined),
  email: z.string().min(1).max(320).optional().catch(undefined),
});

export const USER_TABS = ['memberships', 'sessions', 'grants', 'identities', 'mfa'] as const;
export type UserTab = (typeof USER_TABS)[number];

const userSearchSchema = z.object({ tab: z.enum(USER_TABS).optional().catch(undefined) });

export const userRoutes = [
  createRoute({
    getParentRoute: () => rootRoute,
    path: 'users',
    validateSearch: userListSearchSchema,
    component: UsersPage,
  }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: 'users/$userId',
    validateSearch: userSearchSchema,
    component: UserPage,
  }),
] as const;

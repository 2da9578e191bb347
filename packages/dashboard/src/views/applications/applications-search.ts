import { clientListQuerySchema } from '@svc/contract';
import { z } from 'zod';
import { listSearchSchema } from '../list-search.js';

/**
 * The list's filters (and how the clients came to be: `GET /clients?registration=`), and which view of
 * the page is open (`?view=scopes`: the scope display names).
 */
export const applicationsSearchSchema = listSearchSchema.extend({
  origin: clientListQuerySchema.shape.registration.catch(undefined),
  view: z.enum(['applications', 'scopes']).optional().catch(undefined),
});

export type ApplicationsSearch = z.output<typeof applicationsSearchSchema>;

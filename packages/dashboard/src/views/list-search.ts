import { z } from 'zod';

/**
 * The filters of a list in its link (`/users?q=ada&status=inactive`), so a filtered list can be
 * bookmarked and shared; a value the console does not know is dropped rather than refused.
 */
export const listSearchSchema = z.object({
  q: z.string().max(200).optional().catch(undefined),
  status: z.enum(['active', 'inactive']).optional().catch(undefined),
});
export type ListSearch = z.output<typeof listSearchSchema>;

/** `active` for the operator API from the link's `status`. */
export const activeOf = (status: ListSearch['status']): boolean | undefined =>
  status === undefined ? undefined : status === 'active';

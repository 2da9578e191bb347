import { z } from 'zod';
import type { Surface } from '../api/client.js';
import { useRecord, wholeList, type ListState } from './queries.js';

/**
 * A list the API answers whole (`{ data }`, no cursor: a user's consent grants or linked identities) as
 * the ListState a DataTable shows.
 */
export function useUnpagedList<S extends z.ZodType>(
  surface: Surface,
  path: string,
  item: S,
): ListState<z.output<S>> {
  const result = useRecord(surface, path, z.object({ data: z.array(item) }));
  return wholeList(result, (result.data as { data: z.output<S>[] } | undefined)?.data);
}

import { z } from 'zod';
import { text } from './fields.js';

/** Query of every paged list: `limit` (1-200, default 50) and the opaque `cursor` of the previous page. */
export const pageQuerySchema = z.object({
  limit: z.coerce
    .number({ message: 'limit must be a whole number from 1 to 200' })
    .int({ message: 'limit must be a whole number from 1 to 200' })
    .min(1, { message: 'limit must be a whole number from 1 to 200' })
    .max(200, { message: 'limit must be a whole number from 1 to 200' })
    .default(50),
  cursor: z
    .string()
    .min(1)
    .max(512, { message: 'cursor is not valid; pass the nextCursor of the previous page' })
    .optional(),
});
export type PageQuery = z.output<typeof pageQuerySchema>;

/**
 * A list's `query` (search) filter: up to 200 characters, trimmed, on one line. An empty one (a search
 * box sent empty) filters nothing, as if it were omitted.
 */
export const searchQuerySchema = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .pipe(text(1, 200).optional());

/**
 * A page request of the in-process list operations: `limit` 1-200 (default 50) and the previous page's
 * `nextCursor`; validated with pageQuerySchema.
 */
export interface SvcPageRequest {
  readonly limit?: number;
  readonly cursor?: string;
}

/** A page of a list: newest first; `nextCursor` is null on the last page. */
export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

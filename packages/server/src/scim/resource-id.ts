import { recordPathSchema } from '@svc/contract';

/**
 * Whether `id` could name a User or Group Svc issued: a record id as every operator route takes one (at
 * most 200 characters, no control character, which PostgreSQL would refuse as a NUL). Any other answers
 * 404 (or, as a group member, 400) without a query.
 */
export function couldBeResourceId(id: string): boolean {
  return recordPathSchema.safeParse({ id }).success;
}

import type { Taken } from '../../directory/repository.js';
import { isUniqueViolation } from '../database.js';

/**
 * Partial updates of records. Column values: undefined leaves the column as it is (Kysely drops
 * undefined values from a SET), anything else is converted to its stored form.
 */

/** A boolean as the 0/1 integer both databases store. */
export function flag(value: boolean | undefined): 0 | 1 | undefined {
  return value === undefined ? undefined : value ? 1 : 0;
}

/** A list as its JSON text. */
export function jsonList(value: readonly string[] | undefined): string | undefined {
  return value === undefined ? undefined : JSON.stringify(value);
}

/** The update's answer, or 'taken' when it hit a unique key (the domain decides what that means). */
export async function takenOnConflict<T>(update: () => Promise<T>): Promise<T | Taken> {
  try {
    return await update();
  } catch (error) {
    if (isUniqueViolation(error)) return 'taken';
    throw error;
  }
}

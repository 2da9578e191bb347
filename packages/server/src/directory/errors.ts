import { SvcNotFoundError } from '../kernel/errors.js';

/** The 404 naming a record that does not exist, for example "User 'usr_x' was not found.". */
export function recordNotFound(
  record: 'User' | 'Organization' | 'Membership' | 'Client',
  id: string,
): SvcNotFoundError {
  return new SvcNotFoundError(`${record} '${id}' was not found.`);
}

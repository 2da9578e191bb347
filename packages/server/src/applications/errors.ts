import { SvcPublicAuthError } from '../kernel/errors.js';

/**
 * What a refused user or client is told, whatever the reason (docs/reference/application-access.md "Answers":
 * the public text is generic while audit events and the access-check endpoint carry detail).
 */
export const ACCESS_DENIED_MESSAGE = 'The user may not use this application.';

/** The refusal of a sign-in or an approval (403 access_denied, as the organization policy answers). */
export function applicationAccessDeniedError(): SvcPublicAuthError {
  return new SvcPublicAuthError('access_denied', ACCESS_DENIED_MESSAGE, 403);
}

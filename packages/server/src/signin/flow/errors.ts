import { SvcHostedPageError } from './page-error.js';
import { SvcPublicAuthError } from '../../kernel/errors.js';

/**
 * The answer to a step of an authorization request that is unknown, expired, already finished or was
 * started in another browser. One message for every reason, so that a guessed or leaked request id
 * teaches nothing; the way forward is always to start again at the application.
 */
export function authRequestExpiredError(): SvcHostedPageError {
  return new SvcHostedPageError(
    'This sign-in has expired',
    'This sign-in request is no longer valid: it expired, was already completed, or was started in ' +
      'another browser. Go back to the application you came from and start again.',
    { status: 400, code: 'auth_request_expired' },
  );
}

/** The client was disabled or removed while its user was signing in: nothing may be sent to it. */
export function clientUnavailableError(): SvcHostedPageError {
  return new SvcHostedPageError(
    'This application is not available',
    'The application you are signing in to is no longer available. Contact its provider.',
    { status: 400, code: 'client_unavailable' },
  );
}

/** A malformed /authorize request whose client or redirect URI cannot be trusted (RFC 6749 §4.1.2.1). */
export function invalidAuthorizeRequestError(code: string, description: string): SvcHostedPageError {
  return new SvcHostedPageError('This sign-in link is not valid', description, { status: 400, code });
}

/**
 * Every unusable invitation (unknown, resent, revoked, expired, used, or another client's), on the
 * invitation pages and on a request bound to one: one page, as docs/reference/sign-in.md "The sign-in request" has one error.
 */
export function invitationUnusableError(): SvcHostedPageError {
  return new SvcHostedPageError(
    'This invitation is no longer valid',
    'The invitation link is invalid, was already used, was withdrawn or has expired. Ask the person who ' +
      'invited you to send a new invitation.',
    { status: 400, code: 'invalid_invitation' },
  );
}

/** Runs an invitation operation, turning the domain's `invalid_invitation` into invitationUnusableError. */
export async function invitationOperation<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof SvcPublicAuthError && error.code === 'invalid_invitation') {
      throw invitationUnusableError();
    }
    throw error;
  }
}

import { SvcPublicAuthError } from '../../../kernel/errors.js';

/** The answers of MFA failures: one per kind, whatever the precise reason (nothing to probe). */

export function invalidMfaToken(): SvcPublicAuthError {
  return new SvcPublicAuthError(
    'invalid_token',
    'The MFA sign-in has expired or was completed; sign in again.',
    400,
  );
}

export function invalidCode(): SvcPublicAuthError {
  return new SvcPublicAuthError('invalid_code', 'The code is not valid; check your authenticator app.', 400);
}

export function invalidEnrollment(): SvcPublicAuthError {
  return new SvcPublicAuthError(
    'invalid_token',
    'The authenticator setup has expired or does not belong to this sign-in; start again.',
    400,
  );
}

import { SvcValidationError } from '../kernel/errors.js';

/** A 400 naming the field whose id or key names nothing, so that a typo reads as one. */
export function unknownReference(path: string, message: string): SvcValidationError {
  return new SvcValidationError(message, [{ path, message: 'unknown' }]);
}

import { SvcUnavailableError } from '../kernel/errors.js';

/**
 * SQLSTATEs that say the database cannot serve now, whatever the statement: 08 connection exception,
 * 53 insufficient resources (disk full, out of memory, too many connections), 58 system error (I/O),
 * 57P01-57P05 shutdown, crash, cannot connect now, idle-session and pool ends, 57014 a statement
 * cancelled by statement_timeout, 25P03 a transaction ended by idle_in_transaction_session_timeout.
 */
const UNAVAILABLE_SQLSTATE = /^(08|53|58)|^57P0[1-5]$|^57014$|^25P03$/;

/**
 * SQLite result codes of a database that cannot serve now: busy or locked past the busy timeout, an I/O
 * error, a full disk, a file that cannot be opened or written (extended codes share the prefix).
 */
const UNAVAILABLE_SQLITE = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|PROTOCOL|NOMEM|READONLY)(_|$)/;

/**
 * The error a failed database call becomes: an outage (see above) turns into SvcUnavailableError, which
 * every surface answers with 503 and Retry-After; anything else (a constraint, a bug) stays as it is.
 * `connectionLost` says the driver gave no server answer at all (refused, reset, terminated, timed out).
 */
export function asUnavailable(error: unknown, connectionLost = false): unknown {
  if (error instanceof SvcUnavailableError) return error;
  if (connectionLost || isOutage(error)) return new SvcUnavailableError(error);
  return error;
}

function isOutage(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') return false;
  return UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_SQLITE.test(code);
}

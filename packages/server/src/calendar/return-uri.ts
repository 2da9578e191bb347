import type { CalendarCallbackError } from '@svc/contract';
import { SvcValidationError } from '../kernel/errors.js';

const refused = (message: string) =>
  new SvcValidationError(`Invalid calendar consent: returnUri: ${message}.`, [
    { path: 'returnUri', message },
  ]);

/**
 * The callback sends the browser to the returnUri, so it must be the app's own and nobody else's: the
 * scheme, host, port and path of one of the client's registered redirect URIs. Its query is the app's
 * (where it keeps a state of its own to check on return); a fragment or user info is refused.
 */
export function checkReturnUri(returnUri: string, redirectUris: readonly string[]): void {
  const url = URL.canParse(returnUri) ? new URL(returnUri) : null;
  if (url === null) throw refused('must be an absolute URI');
  if (returnUri.includes('#')) throw refused('must not contain a fragment');
  if (url.username !== '' || url.password !== '') throw refused('must not contain user info');
  const matches = redirectUris.some((registered) => {
    if (!URL.canParse(registered)) return false;
    const candidate = new URL(registered);
    return (
      candidate.protocol === url.protocol &&
      candidate.host === url.host &&
      candidate.pathname === url.pathname
    );
  });
  if (!matches) {
    throw refused("must be one of the client's redirect URIs (its query may differ)");
  }
}

/** What the callback adds to the returnUri: the new connection's id, or why there is none. */
export type CalendarConsentOutcome =
  { readonly calendarConnectionId: string } | { readonly error: CalendarCallbackError };

/** The returnUri with the outcome in its query (replacing a value of the same name the app put there). */
export function returnUrl(returnUri: string, outcome: CalendarConsentOutcome): string {
  const url = new URL(returnUri);
  url.searchParams.delete('calendarConnectionId');
  url.searchParams.delete('error');
  if ('calendarConnectionId' in outcome)
    url.searchParams.set('calendarConnectionId', outcome.calendarConnectionId);
  else url.searchParams.set('error', outcome.error);
  return url.href;
}

import { authRequestExpiredError } from './errors.js';
import type { AuthRequestChallenge, AuthRequestRecord, AuthRequestStore } from './repository.js';

/**
 * Starts a request's sign-in over, as identifying again does: from any unfinished status back to
 * `pending`, forgetting whoever signed in, now waiting for `challenge` (or for nothing: null). One
 * conditional update from the status the request was loaded in, so a concurrent post of another tab
 * (or the expiry) ends this one with the "start again" page. Returns the request as it now stands.
 */
export async function restartSignIn(
  requests: Pick<AuthRequestStore, 'transition'>,
  request: AuthRequestRecord,
  challenge: AuthRequestChallenge | null,
  now: number,
): Promise<AuthRequestRecord> {
  const change = {
    status: 'pending',
    userId: null,
    organizationId: null,
    amr: null,
    authTime: null,
    challenge,
  } as const;
  if (!(await requests.transition(request.id, request.status, change, now))) throw authRequestExpiredError();
  return { ...request, ...change, updatedAt: now };
}

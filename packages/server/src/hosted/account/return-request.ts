import type { AuthRequestSteps } from '../../signin/flow/auth-request-steps.js';
import type { BrowserContext } from '../../signin/flow/authorize-outcomes.js';
import type { AuthRequestRecord } from '../../signin/flow/repository.js';
import { SvcHostedPageError } from '../../signin/flow/page-error.js';
import { requestPageHref } from '../form.js';

/**
 * The authorization request a password reset page was opened from (`request_id`), when it is live and
 * belongs to this browser; null otherwise. The reset pages work without one (a link opened on another
 * device, an expired sign-in), so a stale id quietly drops the "back to sign in" links instead of
 * failing the page.
 */
export async function loadReturnRequest(
  steps: Pick<AuthRequestSteps, 'load'>,
  requestId: string | undefined,
  browser: BrowserContext,
): Promise<AuthRequestRecord | null> {
  if (requestId === undefined || requestId === '') return null;
  try {
    return await steps.load(requestId, browser);
  } catch (error) {
    if (error instanceof SvcHostedPageError) return null;
    throw error;
  }
}

/** `path` under the auth base, with the request id when there is a request. */
export function withReturnRequest(authBase: string, path: string, request: AuthRequestRecord | null): string {
  return request === null ? `${authBase}${path}` : requestPageHref(authBase, path, request.id);
}

import { createHmac } from 'node:crypto';
import { safeEqual } from '../kernel/crypto.js';
import type { AuthRequestRecord } from '../signin/flow/repository.js';

/**
 * The consent view's `consentToken` (docs/reference/sign-in.md "Headless API": /consent/approve and /consent/deny carry requestId and
 * consentToken): proof that this browser was shown the consent view of this request for this user.
 *
 * HMAC-SHA256 keyed with the browser id (the HttpOnly antiforgery cookie's random value, which no
 * script can read and only this browser and the server know) over the request id and the signed-in user
 * and organization. Stateless: nothing is stored; a token of an earlier identity in the same request
 * (the user signed in again as someone else) or of another request or browser does not verify.
 */
export function consentToken(browserId: string, request: AuthRequestRecord): string {
  return createHmac('sha256', browserId)
    .update(`svc headless consent\n${request.id}\n${request.userId ?? ''}\n${request.organizationId ?? ''}`)
    .digest('base64url');
}

/** True when `presented` is the consent token of this request for this browser. */
export function isConsentToken(presented: string, browserId: string, request: AuthRequestRecord): boolean {
  return safeEqual(presented, consentToken(browserId, request));
}

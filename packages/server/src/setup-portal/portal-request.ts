import type { SessionCsrf } from '../kernel/session-csrf.js';
import type { PortalActor } from '../federation/sso-portal/portal-setup.js';
import type { SsoPortalSessions } from '../federation/sso-portal/portal-sessions.js';
import { SvcError } from '../kernel/errors.js';
import type { CookieRequest } from '../http/cookies.js';
import { singleHeader } from '../kernel/single-header.js';
import { readPortalCookie } from './portal-cookie.js';

/**
 * The part of a request the portal reads. Fastify's request (with @fastify/cookie) fits; the structural
 * type keeps this module free of Fastify (layering rule 1).
 */
export interface PortalRequest extends CookieRequest {
  readonly ip: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** A state-changing request without the portal session's antiforgery token, or from another origin. */
export class PortalCsrfError extends SvcError {
  constructor() {
    super(
      'csrf_failed',
      'This request did not come from the setup portal page. Reload the page and try again.',
      {
        status: 403,
      },
    );
  }
}

/** The live portal session of the request's cookie, as the actor of what it does; undefined without one. */
export async function portalActor(
  request: PortalRequest,
  sessions: Pick<SsoPortalSessions, 'find'>,
): Promise<PortalActor | undefined> {
  const secret = readPortalCookie(request);
  const session = secret === undefined ? undefined : await sessions.find(secret);
  return session === undefined ? undefined : { session, ipAddress: request.ip };
}

/** Refuses (403) an unsafe request whose token (`token`) or origin does not fit the session. */
export function requirePortalCsrf(
  csrf: SessionCsrf,
  request: PortalRequest,
  actor: PortalActor,
  token: unknown,
): void {
  const { origin, referer } = request.headers;
  if (!csrf.allows(actor.session.id, token, singleHeader(origin), singleHeader(referer)))
    throw new PortalCsrfError();
}

import type { SvcAuthCallContext } from '../app/facades/svc-auth-service.js';
import { storedUserAgent } from '../kernel/user-agent.js';

/** What the direct routes know about a request, without a dependency on the HTTP framework. */
export interface DirectRequestInfo {
  /** The matched route with its prefix (`/svc/auth/password/login`), recorded in audit events. */
  readonly route: string;
  readonly ip: string;
  /** The `User-Agent` header as the framework hands it over. */
  readonly userAgent: string | readonly string[] | undefined;
  /** The `Authorization` header: a confidential client's HTTP Basic credentials. */
  readonly authorization: string | undefined;
}

/**
 * The SvcAuthService call context of a direct route: the route (docs/reference/events.md: the rejection event
 * "carries client_id and the request route"), the client address, the user agent stored on the
 * session, and the Authorization header that the client gate reads as client_secret_basic.
 */
export function directCallContext(info: DirectRequestInfo): SvcAuthCallContext {
  const userAgent = storedUserAgent(info.userAgent);
  return {
    route: info.route,
    ipAddress: info.ip,
    ...(info.authorization === undefined ? {} : { authorization: info.authorization }),
    ...(userAgent === undefined ? {} : { userAgent }),
  };
}

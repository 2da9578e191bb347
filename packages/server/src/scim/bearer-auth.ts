import { retryAfterSeconds } from '../kernel/errors.js';
import type { FailureLimit, FailureThrottle } from '../ratelimit/failure-throttle.js';
import { ScimError } from './errors.js';
import type { ScimConnectionRecord, ScimConnectionRepository } from './repository.js';
import { scimTokenHash } from './token.js';

/** A refused SCIM request: 401, 403 for a deactivated organization, or 429 with how long to wait. */
export class ScimAuthError extends ScimError {
  readonly retryAfterSeconds: number | null;

  constructor(status: 401 | 403 | 429, detail: string, retryAfterMs?: number) {
    super(status, detail);
    this.retryAfterSeconds = retryAfterMs === undefined ? null : retryAfterSeconds(retryAfterMs);
  }
}

export interface ScimBearerAuthDeps {
  readonly connections: Pick<ScimConnectionRepository, 'findByTokenHash'>;
  readonly failures: FailureLimit & { readonly throttle: Pick<FailureThrottle, 'begin' | 'peek'> };
}

/** `Bearer <token>`, the scheme case-insensitive (RFC 6750 §2.1); anything else is no token. */
function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const space = header.indexOf(' ');
  if (space < 0 || header.slice(0, space).toLowerCase() !== 'bearer') return undefined;
  const token = header.slice(space + 1).trim();
  return token === '' || token.includes(' ') ? undefined : token;
}

/**
 * docs/reference/scim.md "Authentication": `Authorization: Bearer <SCIM_TOKEN>` names one enabled connection
 * and so one organization. The token is looked up by its SHA-256 only. Rejected tokens are counted per client
 * address across requests and nodes; a locked address is refused (429) before any look-up. A valid
 * token of a deactivated organization is refused with 403 (not counted: it is no guess), read on every
 * request, so that a deactivation stops the sync at once on every node.
 */
export class ScimBearerAuth {
  readonly #deps: ScimBearerAuthDeps;

  constructor(deps: ScimBearerAuthDeps) {
    this.#deps = deps;
  }

  async authenticate(authorization: string | undefined, ipAddress: string): Promise<ScimConnectionRecord> {
    const { throttle, rule } = this.#deps.failures;
    const subjects = [{ rule, value: ipAddress }];
    const locked = await throttle.peek(subjects);
    if (locked !== undefined) {
      throw new ScimAuthError(
        429,
        'Too many requests with a rejected token. Try again later.',
        locked.retryAfterMs,
      );
    }
    const token = bearerToken(authorization);
    const found =
      token === undefined ? undefined : await this.#deps.connections.findByTokenHash(scimTokenHash(token));
    if (found?.connection.enabled === true) {
      // A deactivated organization takes no directory changes.
      if (found.organizationActive) return found.connection;
      throw new ScimAuthError(
        403,
        "The connection's organization is deactivated: it takes no directory changes until it is reactivated.",
      );
    }
    // Counted only when refused, so that a provider's requests cost no write; peek above keeps the lock.
    await throttle.begin(subjects);
    throw new ScimAuthError(401, 'The bearer token is missing, not valid, or its connection is disabled.');
  }
}

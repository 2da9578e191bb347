import { clientIdSchema } from '@svc/contract';
import type { ClientRecord, ClientRepository } from '../directory/repository.js';
import type { AuditLog } from '../audit/audit-log.js';
import { safeEqual, sha256Hex } from '../kernel/crypto.js';
import { SvcPublicAuthError, SvcTooManyAttemptsError } from '../kernel/errors.js';
import type { RejectedSecretLimit } from '../ratelimit/rejected-secret-limit.js';
import {
  authenticateClient,
  parseBasic,
  type ClientAuthenticationFailure,
} from '../oauth/clients/client-authentication.js';

/** Where a gated call comes from (for the rejection event) and the client credentials it presented. */
export interface GateCallContext {
  /** The HTTP route (`/svc/auth/password/login`) or the in-process operation (`loginWithPasswordAsync`). */
  readonly operation: string;
  readonly ipAddress?: string | null;
  /** The HTTP Authorization header of a direct route (client_secret_basic), or null. */
  readonly authorization: string | null;
  /** The request's `clientSecret`, or null. */
  readonly clientSecret: string | null;
}

export interface DirectClientGateDeps {
  readonly clients: Pick<ClientRepository, 'findByClientId' | 'findBySecretHash'>;
  /** Rejected client secrets per client and address (config.failureLimits.clientSecretIp). */
  readonly clientSecrets: Pick<RejectedSecretLimit, 'lockedFor' | 'reject'>;
  readonly audit: AuditLog;
}

const NOT_FIRST_PARTY =
  'This client cannot use direct sign-in: only first-party clients can; other clients sign users in through the authorization endpoint.';

/** Why a client was turned away, as the rejection event records it (the first-party gate has none). */
type RejectionReason = ClientAuthenticationFailure | 'secret_not_sent';

/** The public message of each authentication failure; it never says whether a secret was close. */
function authenticationMessage(reason: RejectionReason, client: ClientRecord): string {
  if (reason === 'secret_not_sent') {
    return 'This client is confidential: send its secret with HTTP Basic authentication or as clientSecret.';
  }
  if (reason === 'multiple_methods') {
    return 'Send the client secret once: with HTTP Basic authentication or as clientSecret, not both.';
  }
  if (client.tokenEndpointAuthMethod === 'none' && reason === 'method_mismatch') {
    return 'This client is public: send no client secret.';
  }
  return 'Client authentication failed.';
}

/**
 * The client check of every direct sign-in call (docs/reference/sign-in.md "Direct JSON helpers"), before any credential check, email or token minting:
 *
 * 1. The named client (the request's clientId, else the one in HTTP Basic credentials, or the client a
 *    pending, MFA or challenge token is bound to) must exist, be active and first-party: 400
 *    `invalid_client` otherwise.
 * 2. A confidential client must authenticate with its secret, by HTTP Basic (both parts form-urlencoded,
 *    RFC 6749 §2.3.1) or `clientSecret`, whichever method it registered; a public client sends no
 *    secret. Missing, wrong, doubled or unusable credentials are 401 `invalid_client`. The secret is
 *    compared as a SHA-256 in constant time (oauth/clients/client-authentication.ts, as at /token).
 *
 * Each refusal writes one `oauth.direct_login.rejected` event with client_id and the route, plus the
 * reason when authentication failed.
 */
export class DirectClientGate {
  readonly #deps: DirectClientGateDeps;

  constructor(deps: DirectClientGateDeps) {
    this.#deps = deps;
  }

  async require(clientId: string | null, context: GateCallContext): Promise<ClientRecord> {
    const named = clientId ?? basicClientId(context.authorization);
    const client = named === null ? undefined : await this.#deps.clients.findByClientId(named);
    if (client === undefined || !client.active || !client.isFirstParty) {
      await this.#reject(named, context, null);
      throw new SvcPublicAuthError('invalid_client', NOT_FIRST_PARTY, 400);
    }
    const result = await authenticateClient(
      {
        authorizationHeader: context.authorization ?? undefined,
        bodyClientId: client.clientId,
        bodyClientSecret: context.clientSecret ?? undefined,
        ipAddress: context.ipAddress ?? null,
      },
      { findClient: () => client, rejectedSecrets: this.#deps.clientSecrets },
      { eitherSecretMethod: true },
    );
    if (result.ok) return client;
    if (result.retryAfterMs !== undefined) {
      await this.#reject(client.clientId, context, result.reason);
      throw new SvcTooManyAttemptsError(result.error.description, result.retryAfterMs);
    }
    const sentNothing = context.authorization === null && context.clientSecret === null;
    const reason = sentNothing ? 'secret_not_sent' : result.reason;
    await this.#reject(client.clientId, context, reason);
    throw new SvcPublicAuthError('invalid_client', authenticationMessage(reason, client), 401);
  }

  /**
   * Whether the call's credentials are an active confidential client's own: HTTP Basic with its client
   * id, or a `clientSecret` alone, looked up by its hash. Such a caller is the client's backend relaying
   * its users' tokens, not a guesser (docs/decisions/handed-out-token-failures.md). Nothing is counted
   * here: a wrong secret is counted by `require` when the call gets that far. No credentials: no query.
   */
  async relaying(context: GateCallContext): Promise<boolean> {
    const basic = context.authorization === null ? undefined : parseBasic(context.authorization);
    const basicId = basicClientId(context.authorization);
    const client =
      basic !== undefined && basicId !== null
        ? await this.#deps.clients.findByClientId(basicId)
        : context.clientSecret === null
          ? undefined
          : await this.#deps.clients.findBySecretHash(sha256Hex(context.clientSecret));
    if (client?.active !== true || client.clientSecretHash === null) return false;
    return basic === undefined || safeEqual(sha256Hex(basic.secret), client.clientSecretHash);
  }

  async #reject(clientId: string | null, context: GateCallContext, reason: RejectionReason | null) {
    await this.#deps.audit.record({
      kind: 'oauth.direct_login.rejected',
      actorType: 'client',
      ...(clientId === null ? {} : { actorId: clientId, clientId }),
      ...(context.ipAddress == null ? {} : { ipAddress: context.ipAddress }),
      data: { client_id: clientId, route: context.operation, ...(reason === null ? {} : { reason }) },
    });
  }
}

/** The client_id of well-formed HTTP Basic credentials, else null (never a value no client can have). */
function basicClientId(authorization: string | null): string | null {
  const clientId = authorization === null ? undefined : parseBasic(authorization)?.clientId;
  return clientIdSchema.safeParse(clientId).success ? (clientId ?? null) : null;
}

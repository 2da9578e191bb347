import type { TokenEndpointAuthMethod } from '@svc/contract';
import type { ClientRecord } from '../../directory/repository.js';
import { authenticateClient, type ClientCredentialsInput } from '../clients/client-authentication.js';
import type { DeviceAuthorizations } from '../device/device-authorizations.js';
import { retryAfterPhrase, SvcTooManyAttemptsError } from '../../kernel/errors.js';
import type { RejectedSecretLimit } from '../../ratelimit/rejected-secret-limit.js';
import { oauthError, UnknownGrantError } from '../errors.js';
import { checkResource } from '../resource-indicators.js';
import type { AuthorizationCodes } from '../tokens/authorization-codes.js';
import type { OAuthTokenResponseBody } from '../tokens/issued-tokens.js';
import type { RefreshRotation } from '../tokens/refresh-rotation.js';
import type { ClientCredentialsGrant, ClientCredentialsResponseBody } from './client-credentials.js';
import type { FormParameters } from './form-parameters.js';

/** What the grants of the token endpoint use. */
export interface TokenGrantDeps {
  /** The client registered under a client_id (active or not), or undefined. */
  findClient(clientId: string): Promise<ClientRecord | undefined>;
  /** Rejected client secrets per client and address (config.failureLimits.clientSecretIp). */
  readonly rejectedSecrets: Pick<RejectedSecretLimit, 'lockedFor' | 'reject'>;
  /** Unknown codes and tokens per client address (config.failureLimits.tokenIp, every kind together). */
  readonly rejectedTokens: Pick<RejectedSecretLimit, 'lockedFor' | 'reject'>;
  readonly codes: Pick<AuthorizationCodes, 'redeem'>;
  readonly refresh: Pick<RefreshRotation, 'refresh' | 'owner'>;
  readonly clientCredentials: Pick<ClientCredentialsGrant, 'issue'>;
  /** The device flow's polling (RFC 8628 §3.4). */
  readonly devices: Pick<DeviceAuthorizations, 'poll'>;
  /** Notes a self-described client's first tokens (ClientRepository.markFirstUse); absent: never noted. */
  markFirstUse?(clientId: string): Promise<void>;
}

/**
 * After a grant gave a self-described client tokens: notes its first use, once (the record says whether
 * it was), so that housekeeping never deletes a client in use. The tokens are issued by then, so a
 * failed note must not fail the request: the next grant notes it, and until then the client's token
 * session keeps it from housekeeping as well.
 */
export async function noteFirstUse(
  deps: Pick<TokenGrantDeps, 'markFirstUse'>,
  client: ClientRecord,
): Promise<void> {
  if (client.registration === null || client.registration.firstUsedAt !== null) return;
  await deps.markFirstUse?.(client.clientId).catch(() => undefined);
}

/** One token request after its form was read: the parameters, the client's credentials, the caller. */
export interface GrantRequest {
  readonly params: FormParameters;
  readonly credentials: ClientCredentialsInput;
  readonly userAgent: string | null;
  readonly ipAddress: string | null;
}

/** The success body of POST /token (snake_case, RFC 6749 §5.1). */
export type TokenEndpointBody = OAuthTokenResponseBody | ClientCredentialsResponseBody;

/** One grant_type: reads its parameters, identifies the client and answers, or throws an OAuthError. */
export type TokenGrant = (request: GrantRequest, deps: TokenGrantDeps) => Promise<TokenEndpointBody>;

/** A client that proved itself (confidential) or named itself (public, `none`). */
export interface AuthenticatedClient {
  readonly client: ClientRecord;
  readonly method: TokenEndpointAuthMethod;
}

/**
 * docs/reference/oauth-clients.md "Public and confidential": public clients use token_endpoint_auth_method none; confidential clients
 * authenticate with client_secret_basic or client_secret_post, each only with the method it registered.
 * A failure is the OAuthError of client-authentication.ts (401 invalid_client, with a Basic challenge
 * when the header was tried).
 */
export async function authenticatedClient(
  credentials: ClientCredentialsInput,
  deps: Pick<TokenGrantDeps, 'findClient' | 'rejectedSecrets'>,
): Promise<AuthenticatedClient> {
  const result = await authenticateClient(credentials, {
    findClient: (id) => deps.findClient(id),
    rejectedSecrets: deps.rejectedSecrets,
  });
  if (result.ok) return { client: result.client, method: result.method };
  // Too many wrong secrets of this client from this address: 429 with Retry-After
  // (docs/decisions/client-secret-failures.md).
  if (result.retryAfterMs !== undefined) {
    throw new SvcTooManyAttemptsError(result.error.description, result.retryAfterMs, {
      error: 'invalid_client',
    });
  }
  throw result.error;
}

/**
 * Runs a grant's lookup of a code or token for a public client (or one not identified yet), counting an
 * unknown value against the client address (docs/decisions/handed-out-token-failures.md): while the
 * address is locked, 429 `invalid_grant` without any lookup. An authenticated confidential client is
 * not counted: its backend relays whatever its users bring, and its secret is limited itself.
 */
export async function countingUnknownValues<T>(
  deps: Pick<TokenGrantDeps, 'rejectedTokens'>,
  client: ClientRecord | undefined,
  ipAddress: string | null,
  lookup: () => Promise<T>,
): Promise<T> {
  if (ipAddress === null || (client !== undefined && client.tokenEndpointAuthMethod !== 'none')) {
    return lookup();
  }
  const lockedFor = deps.rejectedTokens.lockedFor('', ipAddress);
  if (lockedFor !== undefined) {
    throw new SvcTooManyAttemptsError(
      `Too many codes or tokens that are not valid were tried from this address. Try again ${retryAfterPhrase(lockedFor)}.`,
      lockedFor,
      { error: 'invalid_grant' },
    );
  }
  try {
    return await lookup();
  } catch (error) {
    if (error instanceof UnknownGrantError) await deps.rejectedTokens.reject('', ipAddress);
    throw error;
  }
}

/**
 * The RFC 8707 `resource` of the request, checked against the client (one absolute URI without a
 * fragment that the client may have tokens for); null when none was sent. Every failure is
 * invalid_target, raised before any grant consumes anything.
 */
export function requestedResource(params: FormParameters, client: ClientRecord): string | null {
  const check = checkResource(params.all('resource'), client);
  if (!check.ok) throw oauthError.invalidTarget(check.description);
  return check.resource;
}

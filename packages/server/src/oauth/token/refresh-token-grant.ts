import type { ClientRecord } from '../../directory/repository.js';
import { hasClientCredentials } from '../clients/client-authentication.js';
import { oauthError, UnknownGrantError } from '../errors.js';
import { toOAuthTokenResponse } from '../tokens/issued-tokens.js';
import type { RefreshTokenOwner } from '../tokens/refresh-rotation.js';
import {
  authenticatedClient,
  countingUnknownValues,
  noteFirstUse,
  requestedResource,
  type TokenGrant,
  type TokenGrantDeps,
} from './grant-context.js';

const NOT_VALID = 'The refresh token is not valid.';

/**
 * grant_type=refresh_token (docs/reference/tokens-and-sessions.md "The token endpoint": public clients (auth method none) do not
 * authenticate and client_id, if sent, must match the token's client; confidential clients must
 * authenticate with client_secret_basic or client_secret_post; … resource optional, cannot change the
 * original binding).
 *
 * Identifying the client:
 * - credentials sent (Authorization header, client_id or client_secret): they must authenticate the
 *   client exactly as registered — a public client sends its client_id alone (a secret is refused), a
 *   confidential client its secret; a token of another client is then invalid_grant (rotation engine)
 * - nothing sent: the token's own client is looked up; a public client proceeds, a confidential client
 *   gets 401 invalid_client ('Client authentication failed.') before rotation, so the token is not used
 *
 * `scope` (RFC 6749 §6): the requested scope must not exceed the scope originally granted (else
 * invalid_scope, before rotation). Narrowing is accepted but not applied: docs/reference/tokens-and-sessions.md "The token endpoint" says the response
 * "on refresh … echoes the scope originally granted to the session", and the new tokens carry that
 * grant. Rotation, replay and deadlines are the engine's (oauth/tokens/refresh-rotation.ts). A token
 * Svc does not know, sent by a public client or without credentials, counts against the address.
 */
export const refreshTokenGrant: TokenGrant = async (request, deps) => {
  const refreshToken = request.params.require('refresh_token');
  // Read at most once, and only when needed (no client credentials, or a scope to check).
  let ownerLookup: Promise<RefreshTokenOwner | undefined> | undefined;
  const lookUpOwner = () => (ownerLookup ??= deps.refresh.owner(refreshToken));

  const identified = hasClientCredentials(request.credentials)
    ? (await authenticatedClient(request.credentials, deps)).client
    : undefined;
  const issued = await countingUnknownValues(deps, identified, request.ipAddress, async () => {
    const client = identified ?? (await publicClientOf(await lookUpOwner(), deps));
    const resource = requestedResource(request.params, client);
    const scope = request.params.get('scope');
    if (scope !== undefined) assertWithinGrant(scope, client, await lookUpOwner());
    const tokens = await deps.refresh.refresh({ refreshToken, client, resource });
    await noteFirstUse(deps, client);
    return tokens;
  });
  return toOAuthTokenResponse(issued);
};

/** The public client a refresh token without client credentials belongs to. */
async function publicClientOf(
  owner: RefreshTokenOwner | undefined,
  deps: Pick<TokenGrantDeps, 'findClient'>,
): Promise<ClientRecord> {
  if (owner === undefined) throw new UnknownGrantError(NOT_VALID);
  const client = await deps.findClient(owner.clientId);
  if (client === undefined) throw oauthError.invalidGrant(NOT_VALID);
  // "this is the only route that can refresh a confidential client's token" — and only authenticated.
  if (client.tokenEndpointAuthMethod !== 'none') {
    throw oauthError.invalidClient('Client authentication failed.');
  }
  return client;
}

/** RFC 6749 §6: "The requested scope MUST NOT include any scope not originally granted". */
function assertWithinGrant(scope: string, client: ClientRecord, owner: RefreshTokenOwner | undefined): void {
  // An unknown token or another client's token: the rotation refuses it with invalid_grant, without
  // telling this client anything about the token's grant.
  if (owner === undefined || owner.clientId !== client.clientId) return;
  const granted = new Set(owner.grantedScopes ?? []);
  const beyond = scope.split(' ').filter((token) => token !== '' && !granted.has(token));
  if (beyond.length > 0) {
    throw oauthError.invalidScope('The requested scope exceeds the scope originally granted.');
  }
}

import { toOAuthTokenResponse } from '../tokens/issued-tokens.js';
import {
  authenticatedClient,
  countingUnknownValues,
  noteFirstUse,
  requestedResource,
  type TokenGrant,
} from './grant-context.js';

/**
 * grant_type=authorization_code (docs/reference/tokens-and-sessions.md "The token endpoint": code, client_id, redirect_uri "if supplied must
 * match", code_verifier "when PKCE-bound; 43 to 128 RFC 7636 unreserved characters", resource "must match
 * original"). The client authenticates first (a public client by its client_id alone); the code's own
 * rules (single use, reuse revokes what it issued, expiry, PKCE, redirect and resource binding) are the
 * engine's (oauth/tokens/authorization-codes.ts). The answer carries an ID token only when provider mode
 * is on and `openid` was granted, echoing the request's nonce. A code Svc does not know, sent by a
 * public client, counts against the address (countingUnknownValues).
 */
export const authorizationCodeGrant: TokenGrant = async (request, deps) => {
  const { client } = await authenticatedClient(request.credentials, deps);
  const code = request.params.require('code');
  const resource = requestedResource(request.params, client);
  const issued = await countingUnknownValues(deps, client, request.ipAddress, () =>
    deps.codes.redeem({
      code,
      client,
      redirectUri: request.params.get('redirect_uri') ?? null,
      codeVerifier: request.params.get('code_verifier') ?? null,
      resource,
    }),
  );
  await noteFirstUse(deps, client);
  return toOAuthTokenResponse(issued);
};

import {
  authenticatedClient,
  countingUnknownValues,
  noteFirstUse,
  requestedResource,
  type TokenGrant,
} from '../token/grant-context.js';
import { toOAuthTokenResponse } from '../tokens/issued-tokens.js';
import { devicePollError } from './errors.js';

/** RFC 8628 §3.4: the grant type of a device's poll at the token endpoint. */
export const DEVICE_CODE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';

/**
 * grant_type=urn:ietf:params:oauth:grant-type:device_code (docs/reference/tokens-and-sessions.md "The token endpoint": client_id,
 * device_code; "resource must match the device request"). The client authenticates first (a public
 * client by its client_id alone, a confidential one with its registered method); a `resource` must be
 * one the client may have (else invalid_target) and equal the bound one. The poll's outcome is a value
 * (./device-polling.ts); every refusal becomes the OAuth error of its name, and success the token
 * response of the authorization_code grant (an ID token when provider mode is on and openid granted).
 * A device code Svc does not know, polled by a public client, counts against the address.
 */
export const deviceCodeGrant: TokenGrant = async (request, deps) => {
  const { client } = await authenticatedClient(request.credentials, deps);
  const deviceCode = request.params.require('device_code');
  const resource = requestedResource(request.params, client);
  const tokens = await countingUnknownValues(deps, client, request.ipAddress, async () => {
    const result = await deps.devices.poll({
      client,
      deviceCode,
      resource,
      userAgent: request.userAgent,
      ipAddress: request.ipAddress,
    });
    if (result.status !== 'complete') throw devicePollError(result);
    return result.tokens;
  });
  await noteFirstUse(deps, client);
  return toOAuthTokenResponse(tokens);
};

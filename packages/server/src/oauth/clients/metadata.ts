import type { DiscoveryContribution } from '../discovery/discovery.js';

/** The client authentication methods of the token endpoint (docs/reference/oauth-clients.md "Public and confidential"). */
export const TOKEN_ENDPOINT_AUTH_METHODS = Object.freeze([
  'client_secret_basic',
  'client_secret_post',
  'none',
]);

/** What the token endpoint adds to discovery once its route is mounted. */
export function tokenEndpointMetadata(issuer: string): DiscoveryContribution {
  return Object.freeze({
    token_endpoint: `${issuer}/token`,
    token_endpoint_auth_methods_supported: [...TOKEN_ENDPOINT_AUTH_METHODS],
  });
}

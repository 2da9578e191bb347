import type { DiscoveryContribution } from '../discovery/discovery.js';

/**
 * What the authorization endpoint adds to discovery once its route is mounted (`issuer` is the auth
 * base, so the endpoint is `{issuer}/authorize`). Every authorization response carries `iss`, so the
 * RFC 9207 flag is advertised and clients that honour it reject a response without the right issuer.
 */
export function authorizeMetadata(issuer: string): DiscoveryContribution {
  return Object.freeze({
    authorization_endpoint: `${issuer}/authorize`,
    authorization_response_iss_parameter_supported: true,
  });
}

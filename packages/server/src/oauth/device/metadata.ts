import type { DiscoveryContribution } from '../discovery/discovery.js';

/**
 * What the device flow adds to discovery (RFC 8628 §4: `device_authorization_endpoint`); its grant
 * type reaches `grant_types_supported` through the token endpoint's list of grants.
 */
export function deviceAuthorizationMetadata(issuer: string): DiscoveryContribution {
  return Object.freeze({ device_authorization_endpoint: `${issuer}/device_authorization` });
}

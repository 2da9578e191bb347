import type { DiscoveryContribution } from '../discovery/discovery.js';
import { SUPPORTED_GRANT_TYPES } from './token-endpoint.js';

/**
 * The grant types of POST /token for discovery (RFC 8414 §2 `grant_types_supported`, whose default when
 * omitted would wrongly claim `implicit`). The endpoint itself and its client authentication methods come
 * from oauth/clients/metadata.ts (tokenEndpointMetadata).
 */
export function grantTypesMetadata(): DiscoveryContribution {
  return Object.freeze({ grant_types_supported: [...SUPPORTED_GRANT_TYPES] });
}

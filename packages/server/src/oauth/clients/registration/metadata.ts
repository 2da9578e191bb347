import type { DiscoveryContribution } from '../../discovery/discovery.js';

/** What dynamic client registration adds to discovery while it is on (RFC 8414 §2, RFC 7591 §3). */
export function registrationMetadata(issuer: string): DiscoveryContribution {
  return Object.freeze({ registration_endpoint: `${issuer}/register` });
}

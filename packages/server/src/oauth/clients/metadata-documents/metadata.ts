import type { DiscoveryContribution } from '../../discovery/discovery.js';

/** What Client ID Metadata Documents add to discovery while they are on (draft §"Authorization Server Metadata"). */
export const METADATA_DOCUMENT_METADATA: DiscoveryContribution = Object.freeze({
  client_id_metadata_document_supported: true,
});

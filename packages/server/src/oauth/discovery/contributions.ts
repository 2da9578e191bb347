import { authorizeMetadata } from '../authorize/metadata.js';
import { tokenEndpointMetadata } from '../clients/metadata.js';
import { METADATA_DOCUMENT_METADATA } from '../clients/metadata-documents/metadata.js';
import { registrationMetadata } from '../clients/registration/metadata.js';
import { deviceAuthorizationMetadata } from '../device/metadata.js';
import { grantTypesMetadata } from '../token/metadata.js';
import { isUserinfoMapped, userinfoMetadata, type UserinfoSwitches } from '../userinfo/metadata.js';
import type { DiscoveryContribution } from './discovery.js';
import { endSessionMetadata } from './end-session-metadata.js';

/**
 * The discovery fields of the OAuth endpoints that exist (DECISIONS: "Discovery advertises only built
 * endpoints"): authorization_endpoint with RFC 9207's authorization_response_iss_parameter_supported
 * (every authorization response carries `iss`), token_endpoint and its client authentication methods,
 * grant_types_supported, device_authorization_endpoint (RFC 8628 §4), end_session_endpoint (OpenID
 * Connect RP-Initiated Logout 1.0), userinfo_endpoint while the userinfo route is mapped, and
 * registration_endpoint while dynamic client registration is on, and client_id_metadata_document_supported
 * while Client ID Metadata Documents are. jwks_uri is contributed by the JWKS route's own wiring.
 */
export function oauthEndpointMetadata(
  config: UserinfoSwitches & {
    readonly issuer: string;
    readonly dynamicClientRegistration: { readonly enabled: boolean };
    readonly clientIdMetadataDocuments: { readonly enabled: boolean };
  },
): readonly DiscoveryContribution[] {
  return [
    authorizeMetadata(config.issuer),
    tokenEndpointMetadata(config.issuer),
    grantTypesMetadata(),
    deviceAuthorizationMetadata(config.issuer),
    endSessionMetadata(config.issuer),
    ...(isUserinfoMapped(config) ? [userinfoMetadata(config.issuer)] : []),
    ...(config.dynamicClientRegistration.enabled ? [registrationMetadata(config.issuer)] : []),
    ...(config.clientIdMetadataDocuments.enabled ? [METADATA_DOCUMENT_METADATA] : []),
  ];
}

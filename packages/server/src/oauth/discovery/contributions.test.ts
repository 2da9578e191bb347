import { describe, expect, it } from 'vitest';
import { buildMetadata } from './discovery.js';
import {
  resolveClientIdMetadataDocuments,
  resolveDynamicClientRegistration,
} from '../../config/dynamic-registration.js';
import { oauthEndpointMetadata } from './contributions.js';

const ISSUER = 'https://id.example.com/svc/auth';
const openId = (
  enabled: boolean,
  enableUserInfoEndpoint: boolean,
  registration = false,
  documents = false,
) => ({
  issuer: ISSUER,
  openId: { enabled, enableUserInfoEndpoint, publishDiscoveryDocument: true },
  dynamicClientRegistration: resolveDynamicClientRegistration({ enabled: registration }, ISSUER),
  clientIdMetadataDocuments: resolveClientIdMetadataDocuments({ enabled: documents }, ISSUER),
});

describe('oauthEndpointMetadata', () => {
  it('advertises the authorization, token, device authorization and userinfo endpoints with their capabilities', () => {
    const metadata = buildMetadata(ISSUER, true, [], oauthEndpointMetadata(openId(true, true)));
    expect(metadata).toMatchObject({
      authorization_endpoint: `${ISSUER}/authorize`,
      authorization_response_iss_parameter_supported: true,
      token_endpoint: `${ISSUER}/token`,
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      grant_types_supported: [
        'authorization_code',
        'refresh_token',
        'client_credentials',
        'urn:ietf:params:oauth:grant-type:device_code',
      ],
      device_authorization_endpoint: `${ISSUER}/device_authorization`,
      end_session_endpoint: `${ISSUER}/session/end`,
      userinfo_endpoint: `${ISSUER}/userinfo`,
    });
    expect(metadata).not.toHaveProperty('registration_endpoint');
    expect(metadata).not.toHaveProperty('client_id_metadata_document_supported');
  });

  it('says so while Client ID Metadata Documents are on', () => {
    const metadata = buildMetadata(ISSUER, true, [], oauthEndpointMetadata(openId(true, true, false, true)));
    expect(metadata).toMatchObject({ client_id_metadata_document_supported: true });
    expect(metadata).not.toHaveProperty('registration_endpoint');
  });

  it('names the registration endpoint while dynamic client registration is on', () => {
    const metadata = buildMetadata(ISSUER, true, [], oauthEndpointMetadata(openId(true, true, true)));
    expect(metadata).toMatchObject({ registration_endpoint: `${ISSUER}/register` });
  });

  it('leaves userinfo_endpoint out while the userinfo route is not mapped', () => {
    for (const config of [openId(true, false), openId(false, true)]) {
      const metadata = buildMetadata(ISSUER, config.openId.enabled, [], oauthEndpointMetadata(config));
      expect(metadata).not.toHaveProperty('userinfo_endpoint');
      expect(metadata).toHaveProperty('token_endpoint');
    }
  });
});

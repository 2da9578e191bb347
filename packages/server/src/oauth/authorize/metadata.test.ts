import { describe, expect, it } from 'vitest';
import { tokenEndpointMetadata } from '../clients/metadata.js';
import { buildMetadata } from '../discovery/discovery.js';
import { authorizeMetadata } from './metadata.js';

const ISSUER = 'http://localhost:8080/svc/auth';

describe('authorization and token endpoint discovery contributions', () => {
  it('advertise the endpoints, RFC 9207 iss and the client authentication methods', () => {
    const metadata = buildMetadata(
      ISSUER,
      true,
      [],
      [authorizeMetadata(ISSUER), tokenEndpointMetadata(ISSUER)],
    );
    expect(metadata).toMatchObject({
      authorization_endpoint: 'http://localhost:8080/svc/auth/authorize',
      token_endpoint: 'http://localhost:8080/svc/auth/token',
      authorization_response_iss_parameter_supported: true,
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      code_challenge_methods_supported: ['S256'],
      response_modes_supported: ['query'],
    });
  });
});

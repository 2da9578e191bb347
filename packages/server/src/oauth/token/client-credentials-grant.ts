import { authenticatedClient, requestedResource, type TokenGrant } from './grant-context.js';

/**
 * grant_type=client_credentials: the client authenticates (a public client can name itself but is then
 * refused as unauthorized_client by the service), the resource is checked, and the service decides the
 * scope and mints the token (./client-credentials.ts).
 */
export const clientCredentialsGrant: TokenGrant = async (request, deps) => {
  const { client, method } = await authenticatedClient(request.credentials, deps);
  const resource = requestedResource(request.params, client);
  return deps.clientCredentials.issue({ client, method, scope: request.params.get('scope'), resource });
};

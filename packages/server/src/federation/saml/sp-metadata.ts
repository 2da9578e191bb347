import { sha256Hex } from '../../kernel/crypto.js';
import { EMAIL_NAME_ID_FORMAT, samlLibrary } from './saml-client.js';

/**
 * The SP metadata document of a connection (`GET /saml/metadata/{connectionId}`), from the library: the
 * entity id, the ACS URL with the HTTP-POST binding, NameID format emailAddress. It declares no key:
 * AuthnRequests are not signed and assertions are not encrypted (the answer travels over TLS; the IdP's
 * signature is what Svc relies on). The document's ID is derived from the entity id, so that the
 * document is the same on every node and every read.
 */
export async function serviceProviderMetadata(connection: {
  spEntityId: string;
  acsUrl: string;
}): Promise<string> {
  const { generateServiceProviderMetadata } = await samlLibrary();
  return generateServiceProviderMetadata({
    issuer: connection.spEntityId,
    callbackUrl: connection.acsUrl,
    identifierFormat: EMAIL_NAME_ID_FORMAT,
    wantAssertionsSigned: false,
    generateUniqueId: () => `_${sha256Hex(connection.spEntityId).slice(0, 40)}`,
  });
}

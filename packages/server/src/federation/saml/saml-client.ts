import type { SAML, SamlConfig } from '@node-saml/node-saml';
import { SamlError } from './errors.js';

/**
 * The library, loaded at the first SAML call: most processes never make one, and loading it (with
 * xml-crypto and its XML parser) costs every start of a process about a tenth of a second.
 */
export const samlLibrary = () => import('@node-saml/node-saml');

/** NameID format Svc asks for and advertises (docs/reference/federation.md "Bindings"). */
export const EMAIL_NAME_ID_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/** The connection as the library is configured for it: both ends of the trust. */
export interface SamlPeers {
  readonly spEntityId: string;
  readonly acsUrl: string;
  readonly idpSsoUrl: string;
  /** PEM certificates; a signature by any of them is accepted (a key rollover lists two). */
  readonly idpSigningCertificates: readonly string[];
}

/**
 * The library (@node-saml/node-saml, over xml-crypto) configured for one connection and one operation;
 * a configuration is cheap, and building one per call means a re-imported certificate holds at once.
 *
 * What is left to the library: the signature (of the response or of the assertion, by one of the IdP's
 * certificates; only what a signature covers is read afterwards, several assertions are refused), the
 * audience, and the IdP's status. What is turned off here and checked in assertion-checks.ts instead:
 * time (`acceptedClockSkewMs: -1`; the library reads `Date.now()` and offers no clock, so Svc checks
 * NotBefore / NotOnOrAfter against its injected Clock), and InResponseTo (`never`; the library keeps
 * request ids in a per-process cache, Svc takes them once from the database so that any node can answer).
 */
async function samlFor(peers: SamlPeers, requestId?: string): Promise<SAML> {
  const { SAML, ValidateInResponseTo } = await samlLibrary();
  const config: SamlConfig = {
    issuer: peers.spEntityId,
    audience: peers.spEntityId,
    callbackUrl: peers.acsUrl,
    entryPoint: peers.idpSsoUrl,
    idpCert: [...peers.idpSigningCertificates],
    identifierFormat: EMAIL_NAME_ID_FORMAT,
    // No RequestedAuthnContext: asking for PasswordProtectedTransport makes IdPs that signed the user in
    // another way (passwordless, MFA, Kerberos) refuse the request.
    disableRequestedAuthnContext: true,
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: false,
    acceptedClockSkewMs: -1,
    validateInResponseTo: ValidateInResponseTo.never,
  };
  return new SAML(requestId === undefined ? config : { ...config, generateUniqueId: () => requestId });
}

/**
 * The IdP's URL with an unsigned, deflated AuthnRequest of ID `requestId` (HTTP-Redirect binding), and
 * `relayState`. The request's IssueInstant is the library's wall clock (it has no option for another).
 */
export async function authnRequestUrl(
  peers: SamlPeers,
  requestId: string,
  relayState: string,
): Promise<string> {
  const saml = await samlFor(peers, requestId);
  return saml.getAuthorizeUrlAsync(relayState, undefined, {});
}

/**
 * The XML of the one assertion a valid signature of the IdP covers, with the audience checked; a typed
 * SamlError otherwise. `base64` has passed readSamlResponse.
 */
export async function verifiedAssertionXml(peers: SamlPeers, base64: string): Promise<string> {
  const saml = await samlFor(peers);
  const { SamlStatusError } = await samlLibrary();
  let xml: string | undefined;
  try {
    const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: base64 });
    xml = profile?.getAssertionXml?.();
  } catch (error) {
    throw libraryError(error, error instanceof SamlStatusError);
  }
  if (xml === undefined) throw new SamlError('invalid_response', 'The SAML response holds no assertion.');
  return xml;
}

/** The library's error as a SamlError: the kind read from its message, the message kept as detail. */
function libraryError(error: unknown, isIdpStatus: boolean): SamlError {
  const detail = error instanceof Error ? error.message : String(error);
  if (isIdpStatus) {
    return new SamlError('idp_error', 'The identity provider did not sign the user in.', detail);
  }
  if (/signature|signed|referenced node|ID cannot refer|multiple assertions|transforms/i.test(detail)) {
    return new SamlError(
      'invalid_signature',
      'The SAML response is not signed by the identity provider of this connection.',
      detail,
    );
  }
  if (/audience/i.test(detail)) {
    return new SamlError('invalid_audience', 'The SAML assertion is not meant for this connection.', detail);
  }
  return new SamlError('invalid_response', 'The SAML response cannot be accepted.', detail);
}

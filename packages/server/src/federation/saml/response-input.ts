import { SamlError } from './errors.js';
import { attribute, childElement, isElement, parseXml, SAML_NS } from './xml.js';

const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';

/** The longest `SAMLResponse` accepted, in base64 characters (a signed response is a few kilobytes). */
export const MAX_SAML_RESPONSE_LENGTH = 200_000;

/**
 * A posted `SAMLResponse`, readable as a SAML Response with a success status. `destination` and
 * `inResponseTo` are read from the envelope before any signature is checked: they only ever narrow what
 * is accepted (they must match the ACS URL and the assertion's own InResponseTo), never widen it.
 */
export interface SamlResponseEnvelope {
  /** The base64 text, without the line breaks some IdPs add. */
  readonly base64: string;
  readonly destination: string | undefined;
  readonly inResponseTo: string | undefined;
}

/** SHA-1 signature and digest methods: collisions can be bought, so a SHA-1 signature proves little. */
const SHA1_ALGORITHMS = new Set([
  'http://www.w3.org/2000/09/xmldsig#rsa-sha1',
  'http://www.w3.org/2000/09/xmldsig#dsa-sha1',
  'http://www.w3.org/2000/09/xmldsig#hmac-sha1',
  'http://www.w3.org/2000/09/xmldsig#sha1',
]);

function malformed(problem: string): SamlError {
  return new SamlError('malformed_response', `The SAML response is malformed: ${problem}.`);
}

/**
 * Checks that `samlResponse` is base64 of an XML SAML Response, before the library sees it: the library
 * decodes base64 leniently (dropping what is not base64) and its parser would read a DOCTYPE. A status
 * other than Success is the IdP's refusal (`idp_error`) even when the response also holds a signed
 * assertion, which the library would accept: a forged status can only refuse, never admit.
 */
export function readSamlResponse(samlResponse: string | undefined): SamlResponseEnvelope {
  if (samlResponse === undefined || samlResponse.trim() === '') throw malformed('SAMLResponse is missing');
  if (samlResponse.length > MAX_SAML_RESPONSE_LENGTH) throw malformed('SAMLResponse is too long');
  const base64 = samlResponse.replace(/\s+/g, '');
  if (base64.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) {
    throw malformed('SAMLResponse is not base64');
  }
  const parsed = parseXml(Buffer.from(base64, 'base64').toString('utf8'));
  if ('problem' in parsed) throw malformed(parsed.problem);
  const root = parsed.document.documentElement;
  if (!isElement(root, SAML_NS.protocol, 'Response')) throw malformed('it is not a SAML 2.0 Response');
  refuseSha1(parsed.document);
  const status = childElement(root, SAML_NS.protocol, 'Status');
  const code = status === undefined ? undefined : childElement(status, SAML_NS.protocol, 'StatusCode');
  const value = code === undefined ? undefined : attribute(code, 'Value');
  if (value !== SUCCESS) {
    const nested = code === undefined ? undefined : childElement(code, SAML_NS.protocol, 'StatusCode');
    const detail = [value, nested === undefined ? undefined : attribute(nested, 'Value')].filter(Boolean);
    throw new SamlError(
      'idp_error',
      'The identity provider did not sign the user in.',
      detail.length === 0 ? 'no status' : detail.join(' / '),
    );
  }
  return {
    base64,
    destination: attribute(root, 'Destination'),
    inResponseTo: attribute(root, 'InResponseTo'),
  };
}

/** Refuses a response with any SHA-1 signature or digest, saying what the IdP's admin must change. */
function refuseSha1(document: Document): void {
  for (const name of ['SignatureMethod', 'DigestMethod']) {
    for (const element of Array.from(document.getElementsByTagNameNS(SAML_NS.dsig, name))) {
      const algorithm = element.getAttribute('Algorithm') ?? '';
      if (SHA1_ALGORITHMS.has(algorithm)) {
        throw new SamlError(
          'invalid_signature',
          'The identity provider signs with SHA-1, which is not accepted: set its signing algorithm to SHA-256.',
          algorithm,
        );
      }
    }
  }
}

import { X509Certificate } from 'node:crypto';
import { SvcValidationError } from '../../kernel/errors.js';
import { LOOPBACK_HOST } from '../../kernel/loopback.js';
import { attribute, childElement, childElements, isElement, parseXml, SAML_NS, textOf } from './xml.js';

/** The binding Svc sends AuthnRequests with (docs/reference/federation.md "Bindings"). */
export const HTTP_REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

/** A connection trusts at most this many signing certificates: the current one and, during a rollover, the next. */
export const MAX_IDP_SIGNING_CERTIFICATES = 2;

/** What Svc keeps of an identity provider's metadata. */
export interface IdpMetadata {
  readonly entityId: string;
  /** The SingleSignOnService location of the HTTP-Redirect binding. */
  readonly ssoUrl: string;
  /** PEM certificates, deduplicated, in the metadata's order. */
  readonly signingCertificates: readonly string[];
}

function invalid(problem: string): SvcValidationError {
  return new SvcValidationError(`Invalid SAML metadata: ${problem}.`, [
    { path: 'metadataXml', message: problem },
  ]);
}

/**
 * Reads an identity provider's SAML metadata (an `EntityDescriptor`, or an `EntitiesDescriptor` holding
 * exactly one identity provider): its entity id, the HTTP-Redirect SingleSignOnService, and its signing
 * certificates (KeyDescriptors with `use="signing"` or no `use`). The metadata's own signature is not
 * checked: an operator pastes it, and trusting the operator is what importing means. Anything Svc cannot
 * use is a 400 saying what to fix.
 */
export function parseIdpMetadata(xml: string): IdpMetadata {
  const parsed = parseXml(xml);
  if ('problem' in parsed) throw invalid(parsed.problem);
  const entity = identityProviderEntity(parsed.document.documentElement);
  const entityId = attribute(entity, 'entityID')?.trim() ?? '';
  if (entityId === '' || entityId.length > 1024) {
    throw invalid('the EntityDescriptor has no entityID (or one over 1024 characters)');
  }
  const descriptor = childElements(entity, SAML_NS.metadata, 'IDPSSODescriptor').find((candidate) =>
    (attribute(candidate, 'protocolSupportEnumeration') ?? '').split(/\s+/).includes(SAML_NS.protocol),
  );
  if (descriptor === undefined) {
    throw invalid('the entity has no IDPSSODescriptor supporting the SAML 2.0 protocol');
  }
  return {
    entityId,
    ssoUrl: redirectSsoUrl(descriptor),
    signingCertificates: signingCertificates(descriptor),
  };
}

function identityProviderEntity(root: Element): Element {
  if (isElement(root, SAML_NS.metadata, 'EntityDescriptor')) return root;
  if (!isElement(root, SAML_NS.metadata, 'EntitiesDescriptor')) {
    throw invalid('the document is not SAML 2.0 metadata (its root must be an md:EntityDescriptor)');
  }
  const providers = Array.from(root.getElementsByTagNameNS(SAML_NS.metadata, 'EntityDescriptor')).filter(
    (entity) => childElement(entity, SAML_NS.metadata, 'IDPSSODescriptor') !== undefined,
  );
  const [only] = providers;
  if (only === undefined || providers.length > 1) {
    throw invalid(
      `the EntitiesDescriptor describes ${providers.length} identity providers; import the EntityDescriptor of exactly one`,
    );
  }
  return only;
}

function redirectSsoUrl(descriptor: Element): string {
  const service = childElements(descriptor, SAML_NS.metadata, 'SingleSignOnService').find(
    (candidate) => attribute(candidate, 'Binding') === HTTP_REDIRECT_BINDING,
  );
  if (service === undefined) {
    throw invalid(
      'the IDPSSODescriptor has no SingleSignOnService with the HTTP-Redirect binding (Svc sends its AuthnRequests by HTTP-Redirect)',
    );
  }
  const location = attribute(service, 'Location')?.trim() ?? '';
  if (location.length > 2048 || !URL.canParse(location)) {
    throw invalid('the HTTP-Redirect SingleSignOnService has no absolute Location URL');
  }
  const url = new URL(location);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOST.test(url.hostname))) {
    throw invalid('the SingleSignOnService Location must use https: (http: only on a loopback host)');
  }
  return location;
}

function signingCertificates(descriptor: Element): string[] {
  const byFingerprint = new Map<string, string>();
  for (const key of childElements(descriptor, SAML_NS.metadata, 'KeyDescriptor')) {
    const use = attribute(key, 'use');
    if (use !== undefined && use !== 'signing') continue;
    for (const element of Array.from(key.getElementsByTagNameNS(SAML_NS.dsig, 'X509Certificate'))) {
      const certificate = certificateOf(textOf(element));
      byFingerprint.set(certificate.fingerprint256, certificate.toString());
    }
  }
  const certificates = [...byFingerprint.values()];
  if (certificates.length === 0) {
    throw invalid(
      'the IDPSSODescriptor has no signing certificate (KeyDescriptor use="signing" with an X509Certificate)',
    );
  }
  if (certificates.length > MAX_IDP_SIGNING_CERTIFICATES) {
    throw invalid(
      `the IDPSSODescriptor lists ${certificates.length} signing certificates; at most ${MAX_IDP_SIGNING_CERTIFICATES} (the current one and the next) are accepted`,
    );
  }
  return certificates;
}

function certificateOf(base64: string): X509Certificate {
  const compact = base64.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) throw invalid('an X509Certificate is not base64');
  try {
    return new X509Certificate(Buffer.from(compact, 'base64'));
  } catch {
    throw invalid('an X509Certificate is not a DER X.509 certificate');
  }
}

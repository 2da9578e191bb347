import { SamlError } from './errors.js';
import { attribute, childElement, childElements, isElement, parseXml, SAML_NS, textOf } from './xml.js';

/** SubjectConfirmation method of a browser SSO assertion (SAML profiles §4.1.4.2). */
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';

/** A bearer SubjectConfirmationData's restrictions; times in epoch ms. */
export interface BearerConfirmation {
  readonly recipient: string | undefined;
  readonly inResponseTo: string | undefined;
  readonly notBefore: number | undefined;
  readonly notOnOrAfter: number | undefined;
}

/** What Svc reads of an assertion, all of it from the XML a signature covers. Times in epoch ms. */
export interface AssertionFacts {
  readonly id: string;
  readonly issuer: string | undefined;
  readonly nameId: string | undefined;
  readonly nameIdFormat: string | undefined;
  readonly sessionIndex: string | undefined;
  /** The Conditions' validity window. */
  readonly notBefore: number | undefined;
  readonly notOnOrAfter: number | undefined;
  readonly confirmations: readonly BearerConfirmation[];
  /** Every attribute's values by its Name, in document order. */
  readonly attributes: Readonly<Record<string, readonly string[]>>;
}

function invalid(problem: string): SamlError {
  return new SamlError('invalid_response', `The SAML assertion cannot be accepted: ${problem}.`);
}

function time(element: Element | undefined, name: string): number | undefined {
  const value = element === undefined ? undefined : attribute(element, name);
  if (value === undefined) return undefined;
  const epochMs = Date.parse(value);
  if (Number.isNaN(epochMs)) throw invalid(`${name} is not a date`);
  return epochMs;
}

/**
 * Reads the assertion the library verified (saml-client.ts gives only XML a valid signature covers).
 * Namespaces are compared, never prefixes.
 */
export function readAssertion(xml: string): AssertionFacts {
  const parsed = parseXml(xml);
  if ('problem' in parsed) throw invalid(parsed.problem);
  const assertion = parsed.document.documentElement;
  if (!isElement(assertion, SAML_NS.assertion, 'Assertion')) throw invalid('it is not a SAML 2.0 Assertion');
  const id = attribute(assertion, 'ID') ?? '';
  if (id === '') throw invalid('it has no ID');
  const issuer = childElement(assertion, SAML_NS.assertion, 'Issuer');
  const subject = childElement(assertion, SAML_NS.assertion, 'Subject');
  const nameId = subject === undefined ? undefined : childElement(subject, SAML_NS.assertion, 'NameID');
  const conditions = childElement(assertion, SAML_NS.assertion, 'Conditions');
  const authn = childElement(assertion, SAML_NS.assertion, 'AuthnStatement');
  return {
    id,
    issuer: issuer === undefined ? undefined : textOf(issuer),
    nameId: nameId === undefined ? undefined : textOf(nameId),
    nameIdFormat: nameId === undefined ? undefined : attribute(nameId, 'Format'),
    sessionIndex: authn === undefined ? undefined : attribute(authn, 'SessionIndex'),
    notBefore: time(conditions, 'NotBefore'),
    notOnOrAfter: time(conditions, 'NotOnOrAfter'),
    confirmations: subject === undefined ? [] : bearerConfirmations(subject),
    attributes: attributesOf(assertion),
  };
}

function bearerConfirmations(subject: Element): BearerConfirmation[] {
  return childElements(subject, SAML_NS.assertion, 'SubjectConfirmation')
    .filter((confirmation) => attribute(confirmation, 'Method') === BEARER)
    .map((confirmation) => {
      const data = childElement(confirmation, SAML_NS.assertion, 'SubjectConfirmationData');
      return {
        recipient: data === undefined ? undefined : attribute(data, 'Recipient'),
        inResponseTo: data === undefined ? undefined : attribute(data, 'InResponseTo'),
        notBefore: time(data, 'NotBefore'),
        notOnOrAfter: time(data, 'NotOnOrAfter'),
      };
    });
}

function attributesOf(assertion: Element): Record<string, string[]> {
  // A Map, then own properties: an attribute named `__proto__` must stay an attribute.
  const attributes = new Map<string, string[]>();
  for (const statement of childElements(assertion, SAML_NS.assertion, 'AttributeStatement')) {
    for (const element of childElements(statement, SAML_NS.assertion, 'Attribute')) {
      const name = attribute(element, 'Name');
      if (name === undefined || name === '') continue;
      const values = childElements(element, SAML_NS.assertion, 'AttributeValue').map(textOf);
      attributes.set(name, [...(attributes.get(name) ?? []), ...values]);
    }
  }
  return Object.fromEntries(attributes);
}

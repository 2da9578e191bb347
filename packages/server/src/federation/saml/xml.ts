import { DOMParser } from '@xmldom/xmldom';

/** The namespaces Svc reads SAML documents by (prefixes are the sender's choice, never compared). */
export const SAML_NS = {
  metadata: 'urn:oasis:names:tc:SAML:2.0:metadata',
  protocol: 'urn:oasis:names:tc:SAML:2.0:protocol',
  assertion: 'urn:oasis:names:tc:SAML:2.0:assertion',
  dsig: 'http://www.w3.org/2000/09/xmldsig#',
} as const;

/** A parsed document, or why the text is not one. */
export type ParsedXml = { readonly document: Document } | { readonly problem: string };

/**
 * Parses `text` as XML with the parser the SAML library uses (@xmldom/xmldom). A DOCTYPE is refused
 * before parsing: SAML messages and metadata never need one, and entity declarations are how XML
 * parsers are made to expand or fetch things. Parse errors are reported, not repaired, and so are the
 * parser's warnings: xmldom 0.8 only warns of an unclosed root element, which is no document.
 */
export function parseXml(text: string): ParsedXml {
  if (/<!DOCTYPE|<!ENTITY/i.test(text))
    return { problem: 'it has a DOCTYPE or an entity declaration, which SAML never needs' };
  const errors: string[] = [];
  const record = (message: string) => errors.push(message.replace(/\s+/g, ' ').trim());
  const document = new DOMParser({
    locator: {},
    errorHandler: { warning: record, error: record, fatalError: record },
  }).parseFromString(text, 'text/xml');
  const first = errors[0];
  if (first !== undefined) return { problem: `it is not well-formed XML (${first.slice(0, 200)})` };
  if (document.documentElement === null) return { problem: 'it holds no XML element' };
  return { document };
}

/** The element children of `parent` named `localName` in namespace `ns`, in document order. */
export function childElements(parent: Element, ns: string, localName: string): Element[] {
  const found: Element[] = [];
  for (let node = parent.firstChild; node !== null; node = node.nextSibling) {
    if (node.nodeType !== 1) continue;
    const element = node as Element;
    if (element.namespaceURI === ns && element.localName === localName) found.push(element);
  }
  return found;
}

/** The first element child of `parent` named `localName` in namespace `ns`. */
export function childElement(parent: Element, ns: string, localName: string): Element | undefined {
  return childElements(parent, ns, localName)[0];
}

/** Whether `element` is `localName` in namespace `ns`. */
export function isElement(element: Element, ns: string, localName: string): boolean {
  return element.namespaceURI === ns && element.localName === localName;
}

/** An attribute's value, or undefined when the element does not have it (xmldom answers '' for both). */
export function attribute(element: Element, name: string): string | undefined {
  return element.hasAttribute(name) ? (element.getAttribute(name) ?? undefined) : undefined;
}

/** The element's text, trimmed. */
export function textOf(element: Element): string {
  return (element.textContent ?? '').trim();
}

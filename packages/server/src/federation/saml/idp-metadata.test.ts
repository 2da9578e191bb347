import { X509Certificate } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { SvcValidationError } from '../../kernel/errors.js';
import { samlTestKeys, type SamlTestKeys } from '../../test-support/federation/saml-certificates.js';
import { parseIdpMetadata } from './idp-metadata.js';

const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';

/** The base64 body of a PEM certificate, as metadata carries it. */
const der = (pem: string) => pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');

const keyDescriptor = (pem: string, use: string | null = 'signing') =>
  `<md:KeyDescriptor${use === null ? '' : ` use="${use}"`}><ds:KeyInfo><ds:X509Data><ds:X509Certificate>
${der(pem)}
</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`;

/** Metadata shaped like Microsoft Entra ID's (prefixed, a RoleDescriptor first, both bindings). */
function entityDescriptor(options: { keys: string; services?: string; entityId?: string }): string {
  const services =
    options.services ??
    `<md:SingleSignOnService Binding="${POST}" Location="https://login.example.test/saml2/post"/>
     <md:SingleSignOnService Binding="${REDIRECT}" Location="https://login.example.test/saml2"/>`;
  return `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${options.entityId ?? 'https://sts.example.test/tenant/'}">
  <md:RoleDescriptor xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="fed:SecurityTokenServiceType" protocolSupportEnumeration="http://docs.oasis-open.org/wsfed/federation/200706"/>
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    ${options.keys}
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    ${services}
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;
}

describe('reading IdP metadata', () => {
  let keys: SamlTestKeys;
  beforeAll(async () => {
    keys = await samlTestKeys();
  });

  const problem = (xml: string): string => {
    try {
      parseIdpMetadata(xml);
    } catch (error) {
      expect(error).toBeInstanceOf(SvcValidationError);
      expect((error as SvcValidationError).details[0]?.path).toBe('metadataXml');
      return (error as Error).message;
    }
    throw new Error('The metadata was accepted.');
  };

  it('reads the entity id, the HTTP-Redirect SSO URL and the signing certificates of Entra-shaped metadata', () => {
    const metadata = parseIdpMetadata(
      entityDescriptor({
        keys: [
          keyDescriptor(keys.current.certificate),
          keyDescriptor(keys.forger.certificate, 'encryption'),
          keyDescriptor(keys.next.certificate, null),
          keyDescriptor(keys.current.certificate),
        ].join(''),
      }),
    );
    expect(metadata.entityId).toBe('https://sts.example.test/tenant/');
    expect(metadata.ssoUrl).toBe('https://login.example.test/saml2');
    expect(metadata.signingCertificates.map((pem) => new X509Certificate(pem).subject)).toEqual([
      'CN=svc-test-idp-current',
      'CN=svc-test-idp-next',
    ]);
  });

  it('takes the one identity provider of an EntitiesDescriptor, and refuses several', () => {
    const one = entityDescriptor({ keys: keyDescriptor(keys.current.certificate) });
    const wrap = (inner: string) =>
      `<EntitiesDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata">${inner}</EntitiesDescriptor>`;
    expect(parseIdpMetadata(wrap(one)).entityId).toBe('https://sts.example.test/tenant/');
    const other = entityDescriptor({
      keys: keyDescriptor(keys.next.certificate),
      entityId: 'https://b.test',
    });
    expect(problem(wrap(one + other))).toContain('describes 2 identity providers');
  });

  it('says what is wrong with metadata Svc cannot use', () => {
    const current = keyDescriptor(keys.current.certificate);
    const cases: [string, string][] = [
      ['not xml at all', 'holds no XML element'],
      ['<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata"', 'not well-formed XML'],
      ['<!DOCTYPE x [<!ENTITY e "e">]><x>&e;</x>', 'DOCTYPE'],
      ['<EntityDescriptor entityID="x"/>', 'not SAML 2.0 metadata'],
      [entityDescriptor({ keys: current, entityId: '' }), 'has no entityID'],
      [
        entityDescriptor({ keys: current }).replace(
          'urn:oasis:names:tc:SAML:2.0:protocol"',
          'urn:oasis:names:tc:SAML:1.1:protocol"',
        ),
        'no IDPSSODescriptor supporting the SAML 2.0 protocol',
      ],
      [
        entityDescriptor({
          keys: current,
          services: `<md:SingleSignOnService Binding="${POST}" Location="https://idp.test/post"/>`,
        }),
        'no SingleSignOnService with the HTTP-Redirect binding',
      ],
      [
        entityDescriptor({
          keys: current,
          services: `<md:SingleSignOnService Binding="${REDIRECT}" Location="http://idp.test/sso"/>`,
        }),
        'must use https:',
      ],
      [
        entityDescriptor({ keys: keyDescriptor(keys.current.certificate, 'encryption') }),
        'no signing certificate',
      ],
      [
        entityDescriptor({
          keys: [keys.current, keys.next, keys.forger]
            .map((pair) => keyDescriptor(pair.certificate))
            .join(''),
        }),
        'lists 3 signing certificates',
      ],
      [entityDescriptor({ keys: keyDescriptor('-----BEGIN X----- ***') }), 'not base64'],
      [entityDescriptor({ keys: keyDescriptor('-----BEGIN X----- AAAA') }), 'not a DER X.509 certificate'],
    ];
    for (const [xml, expected] of cases) {
      expect(problem(xml), xml.slice(0, 60)).toContain(expected);
    }
  });

  it('accepts an SSO URL over plain http on a loopback host (an IdP beside Svc in development)', () => {
    const services = `<md:SingleSignOnService Binding="${REDIRECT}" Location="http://127.0.0.1:9000/sso"/>`;
    const metadata = parseIdpMetadata(
      entityDescriptor({ keys: keyDescriptor(keys.current.certificate), services }),
    );
    expect(metadata.ssoUrl).toBe('http://127.0.0.1:9000/sso');
  });
});

import { emailSchema } from '@svc/contract';
import { EMAIL_NAME_ID_FORMAT } from './saml-client.js';
import type { AssertionFacts } from './verified-assertion.js';

/**
 * The attribute names each field is read from, in order of preference, compared without regard to case:
 * the names Microsoft Entra ID (the `…/claims/…` URIs), Okta and Google Workspace (whatever the admin
 * typed; these are the names their guides use) send by default, the LDAP / eduPerson OIDs, and ADFS's.
 */
export const SAML_ATTRIBUTE_NAMES = {
  email: [
    'email',
    'emailaddress',
    'mail',
    'user.email',
    'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
    'http://schemas.xmlsoap.org/claims/EmailAddress',
    'urn:oid:0.9.2342.19200300.100.1.3',
  ],
  firstName: [
    'firstname',
    'first_name',
    'givenname',
    'given_name',
    'user.firstname',
    'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
    'urn:oid:2.5.4.42',
  ],
  lastName: [
    'lastname',
    'last_name',
    'surname',
    'sn',
    'family_name',
    'user.lastname',
    'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
    'urn:oid:2.5.4.4',
  ],
  displayName: [
    'displayname',
    'display_name',
    'http://schemas.microsoft.com/identity/claims/displayname',
    'urn:oid:2.16.840.1.113730.3.1.241',
    'cn',
    'urn:oid:2.5.4.3',
  ],
} as const satisfies Record<string, readonly string[]>;

/** Who the assertion says signed in, as Svc's sign-in reads it. */
export interface SamlIdentity {
  /** The first valid address of the email attributes, else an emailAddress-format NameID. */
  readonly email: string | undefined;
  readonly firstName: string | null;
  readonly lastName: string | null;
  /** The display-name attribute, else the first and last names joined, else null. */
  readonly displayName: string | null;
}

/**
 * Reads the user's address and names. The email attributes win over the NameID: Entra's default NameID
 * is the user principal name in emailAddress format, which need not be the user's mailbox, while its
 * emailaddress claim is. Values are trimmed; empty ones count as absent.
 */
export function mapIdentity(facts: AssertionFacts): SamlIdentity {
  const values = (names: readonly string[]) => {
    const wanted = new Set(names.map((name) => name.toLowerCase()));
    const matching = Object.entries(facts.attributes).filter(([name]) => wanted.has(name.toLowerCase()));
    // The list's order decides between attributes, not the document's.
    matching.sort(([a], [b]) => rank(names, a) - rank(names, b));
    return matching.flatMap(([, found]) =>
      found.map((value) => value.trim()).filter((value) => value !== ''),
    );
  };
  const nameIdEmail = facts.nameIdFormat === EMAIL_NAME_ID_FORMAT ? facts.nameId : undefined;
  const email = [
    ...values(SAML_ATTRIBUTE_NAMES.email),
    ...(nameIdEmail === undefined ? [] : [nameIdEmail]),
  ].find((candidate) => emailSchema.safeParse(candidate).success);
  const firstName = values(SAML_ATTRIBUTE_NAMES.firstName)[0] ?? null;
  const lastName = values(SAML_ATTRIBUTE_NAMES.lastName)[0] ?? null;
  const joined = [firstName, lastName].filter((part) => part !== null).join(' ');
  return {
    email,
    firstName,
    lastName,
    displayName: values(SAML_ATTRIBUTE_NAMES.displayName)[0] ?? (joined === '' ? null : joined),
  };
}

function rank(names: readonly string[], name: string): number {
  return names.findIndex((candidate) => candidate.toLowerCase() === name.toLowerCase());
}

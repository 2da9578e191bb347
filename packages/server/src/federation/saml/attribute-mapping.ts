import { emailSchema, SAML_ATTRIBUTE_NAMES } from '@svc/contract';
import { EMAIL_NAME_ID_FORMAT } from './saml-client.js';
import type { AssertionFacts } from './verified-assertion.js';

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

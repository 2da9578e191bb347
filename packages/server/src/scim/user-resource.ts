import { z } from 'zod';
import { emailMatchValue } from '../directory/email-key.js';
import type { ScimUserEmail, ScimUserMatch } from './repository.js';
import { externalIdSchema, parseResourceBody } from './resource-body.js';
import { ENTERPRISE_USER_SCHEMA } from './schema-names.js';

/**
 * A SCIM boolean as providers send it: JSON booleans, and the strings "True" / "False" in any case
 * (Microsoft Entra ID sends `"value": "False"` in PATCH operations).
 */
export const scimBoolean = z.preprocess((value) => {
  if (typeof value !== 'string') return value;
  const lower = value.trim().toLowerCase();
  return lower === 'true' ? true : lower === 'false' ? false : value;
}, z.boolean());

const scimString = z.string().max(2048);
const attributeValue = scimString.optional();

/** A multi-valued attribute's item (emails, phoneNumbers): RFC 7643 §2.4 value, display, type, primary. */
const multiValuedItem = z.object({
  value: attributeValue,
  display: attributeValue,
  type: attributeValue,
  primary: scimBoolean.optional(),
});

/**
 * An item of `emails`: an address as long as one can be (RFC 5321's 254 octets, with room for a display
 * form) and a type of a sane length. Each item is a row of the `emails.value` filter's index, whose entries
 * PostgreSQL caps at about 2,700 bytes, so the address is bounded in bytes too, as its key may be longer
 * (a domain's A-label is).
 */
const emailItem = multiValuedItem.extend({
  value: z
    .string()
    .max(320)
    .refine((value) => Buffer.byteLength(emailMatchValue(value)) <= 1024, {
      message: 'at most 1,024 bytes as a lookup key',
    })
    .optional(),
  type: z.string().max(64).optional(),
});

const addressItem = z.object({
  formatted: attributeValue,
  streetAddress: attributeValue,
  locality: attributeValue,
  region: attributeValue,
  postalCode: attributeValue,
  country: attributeValue,
  type: attributeValue,
  primary: scimBoolean.optional(),
});

const nameSchema = z.object({
  formatted: attributeValue,
  familyName: attributeValue,
  givenName: attributeValue,
  middleName: attributeValue,
  honorificPrefix: attributeValue,
  honorificSuffix: attributeValue,
});

/** RFC 7643 §4.3; `manager` as a bare id string too (Entra's PATCH sends it so). */
const enterpriseSchema = z.object({
  employeeNumber: attributeValue,
  costCenter: attributeValue,
  organization: attributeValue,
  division: attributeValue,
  department: attributeValue,
  manager: z
    .preprocess(
      (value) => (typeof value === 'string' ? { value } : value),
      z.object({ value: attributeValue, displayName: attributeValue, $ref: attributeValue }),
    )
    .optional(),
});

/**
 * The attributes of a SCIM User that Svc stores (RFC 7643 §4.1 and the enterprise extension), as the
 * body of POST and PUT and the result of a PATCH. Read-only and unknown attributes (`id`, `meta`,
 * `groups`, anything else) are dropped; a `password` is never stored (docs/reference/scim.md "Users are
 * accounts and memberships": a `password` is accepted and ignored).
 */
const userAttributesSchema = z.object({
  userName: z.string().trim().min(1).max(256),
  externalId: externalIdSchema.optional(),
  name: nameSchema.optional(),
  displayName: attributeValue,
  nickName: attributeValue,
  profileUrl: attributeValue,
  title: attributeValue,
  userType: attributeValue,
  preferredLanguage: attributeValue,
  locale: attributeValue,
  timezone: attributeValue,
  active: scimBoolean.optional(),
  emails: z.array(emailItem).max(50).optional(),
  phoneNumbers: z.array(multiValuedItem).max(50).optional(),
  addresses: z.array(addressItem).max(20).optional(),
  [ENTERPRISE_USER_SCHEMA]: enterpriseSchema.optional(),
});

export type ScimUserAttributes = z.output<typeof userAttributesSchema>;

/** Reads a User body (POST, PUT, a PATCH result); a bad one is 400 `invalidValue` naming the attribute. */
export function parseUserAttributes(body: unknown): ScimUserAttributes {
  return parseResourceBody(userAttributesSchema, body, 'the user');
}

/** The address a Svc account gets: the primary email, else the work one, else the first, else userName. */
export function accountEmail(attributes: ScimUserAttributes): string {
  const emails = attributes.emails ?? [];
  const chosen =
    emails.find((email) => email.primary === true) ??
    emails.find((email) => email.type?.toLowerCase() === 'work') ??
    emails[0];
  return (chosen?.value ?? attributes.userName).trim();
}

/** What the Svc account shows: displayName, else the formatted or composed name, else userName. */
export function accountDisplayName(attributes: ScimUserAttributes): string {
  const { name } = attributes;
  const composed = [name?.givenName, name?.familyName]
    .filter((part) => part !== undefined && part !== '')
    .join(' ');
  const candidates = [attributes.displayName, name?.formatted, composed, attributes.userName];
  const chosen = candidates.find((candidate) => candidate !== undefined && candidate.trim() !== '') ?? '';
  return chosen.trim().slice(0, 200);
}

/**
 * What the `emails.value` filter matches (RFC 7644 §3.4.2.2: any of the values): each item's address by
 * its email key (a value the key refuses, such as one not ASCII before the @, by itself: it never
 * matches another address), with its type in lower case ('' without one), since RFC 7643 §2.4 compares
 * types case-insensitively. Items without a value and repeats are left out.
 */
export function userEmails(attributes: ScimUserAttributes): ScimUserEmail[] {
  const unique = new Map<string, ScimUserEmail>();
  for (const { value, type } of attributes.emails ?? []) {
    if (value === undefined || value.trim() === '') continue;
    const email = { key: emailMatchValue(value), type: type === undefined ? '' : typeKey(type) };
    unique.set(JSON.stringify(email), email);
  }
  return [...unique.values()];
}

/** An item's type as {@link userEmails} keeps it. */
function typeKey(type: string): string {
  return type.trim().toLowerCase();
}

/** The `emails.value` look-up of a filter's address (and the item's type, when it names one). */
export function emailMatch(value: string, type: string | undefined): ScimUserMatch {
  const key = emailMatchValue(value);
  return type === undefined
    ? { attribute: 'emails.value', value: key }
    : { attribute: 'emails.value', value: key, type: typeKey(type) };
}

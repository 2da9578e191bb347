import { SCIM_SCHEMAS, type AttributeSpec } from './attribute-schemas.js';
import { ENTERPRISE_USER_SCHEMA } from './schema-names.js';

/**
 * Names a request may use that the schema documents do not list: the common attributes (RFC 7643 §3.1),
 * those Svc reads but does not store (`password`, the read-only `groups`), and the extension's URN as
 * a key.
 */
const UNLISTED_NAMES = ['schemas', 'id', 'externalId', 'meta', 'password', 'groups', ENTERPRISE_USER_SCHEMA];

function namesOf(attributes: readonly AttributeSpec[]): string[] {
  return attributes.flatMap((spec) => [spec.name, ...namesOf(spec.subAttributes ?? [])]);
}

/**
 * Canonical spellings of the attribute names Svc knows, from its schema documents. SCIM attribute names
 * are case-insensitive (RFC 7643 §2.1), so what a client sends is mapped onto these before it is read.
 */
const BY_LOWER = new Map(
  [...UNLISTED_NAMES, ...SCIM_SCHEMAS.flatMap((schema) => namesOf(schema.attributes))].map((name) => [
    name.toLowerCase(),
    name,
  ]),
);

/** The canonical spelling of an attribute name, or the name as given when Svc does not know it. */
export function canonicalName(name: string): string {
  return BY_LOWER.get(name.toLowerCase()) ?? name;
}

/** A JSON value with every object key in its canonical spelling, at every depth. */
export function canonicalKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [canonicalName(key), canonicalKeys(item)]),
  );
}

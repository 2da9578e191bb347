import { z } from 'zod';
import { ScimError } from './errors.js';
import { canonicalKeys } from './attribute-names.js';

/** RFC 7643 §2.5: null and an empty array mean "unassigned"; dropped at every depth before parsing. */
function withoutUnassigned(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUnassigned);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, item]) => item !== null && !(Array.isArray(item) && item.length === 0))
      .map(([key, item]) => [key, withoutUnassigned(item)]),
  );
}

/** Where the first NUL of a body is, in a value or an attribute name: PostgreSQL cannot store one. */
function nulAt(value: unknown, path: readonly string[]): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path.join('.') : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const at = [...path, key];
    const found = key.includes('\u0000') ? at.join('.') : nulAt(item, at);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Reads a resource body with its schema, attribute names case-insensitive and unassigned values
 * dropped; not an object is 400 `invalidSyntax`, a bad attribute 400 `invalidValue` naming it. A NUL
 * anywhere in it is refused too (other control characters pass: a formatted address has line breaks).
 */
export function parseResourceBody<S extends z.ZodType>(schema: S, body: unknown, what: string): z.output<S> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ScimError(400, 'The request body must be a JSON object.', 'invalidSyntax');
  }
  const nul = nulAt(body, []);
  if (nul !== undefined) {
    throw new ScimError(
      400,
      `The attribute ${nul} is not valid: it contains a NUL character.`,
      'invalidValue',
    );
  }
  const parsed = schema.safeParse(withoutUnassigned(canonicalKeys(body)));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? what : issue.path.join('.');
    throw new ScimError(
      400,
      `The attribute ${where} is not valid: ${issue?.message ?? 'invalid'}.`,
      'invalidValue',
    );
  }
  return parsed.data;
}

/**
 * The `externalId` of a User or Group, the provider's own id (a GUID from Entra ID, an id from Okta):
 * bounded in bytes as well as in characters, since it is a key of a unique index whose entries
 * PostgreSQL caps at about 2,700 bytes (2,048 characters of a non-Latin script would exceed it).
 */
export const externalIdSchema = z
  .string()
  .max(2048)
  .refine((value) => Buffer.byteLength(value) <= 2048, { message: 'at most 2,048 bytes' });

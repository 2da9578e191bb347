import { z } from 'zod';

/**
 * Field rules shared by the operator API (admin.ts) and the direct JSON helpers (auth.ts, passwordless.ts),
 * so that both kinds of caller meet the same rules. Internal to the package: index.ts does not re-export
 * this module.
 */

// Unicode category Cc: C0 and C1 controls and DEL (NUL included; PostgreSQL cannot store it).
const CONTROL_CHARS = /\p{Cc}/u;

/** A trimmed, single-line string of `min`..`max` characters. */
export function text(min: number, max: number) {
  return z
    .string()
    .trim()
    .min(min)
    .max(max)
    .refine((value) => !CONTROL_CHARS.test(value), { message: 'must not contain control characters' });
}

/**
 * A field of a partial update that may be cleared: omitted keeps the value (undefined), while null, ''
 * and whitespace clear it (null); anything else must pass `schema`.
 */
export function clearableText<T extends z.ZodType<string, string>>(schema: T) {
  return z
    .string()
    .trim()
    .transform((value) => (value === '' ? null : value))
    .pipe(schema.nullable())
    .nullable()
    .optional();
}

/**
 * An optional string field: null, omitted, '' and whitespace all mean "none" (null), because forms
 * send empty inputs as ''; anything else must pass `schema`.
 */
export function optionalText<T extends z.ZodType<string, string>>(schema: T) {
  return clearableText(schema).transform((value) => value ?? null);
}

/** Optional and nullable on the wire; null in the parsed output when omitted. */
export function nullable<T extends z.ZodType>(schema: T) {
  return schema
    .nullish()
    .transform((value): z.output<T> | null => (value === undefined ? null : (value as z.output<T> | null)));
}

/** A record id (`org_…`, `usr_…`, `cgr_…`). */
export const recordIdSchema = text(1, 200);

/** A flag in a query string ('true' / 'false') or a boolean in process (a list's `active`, `enabled`). */
export const booleanQuerySchema = z.union(
  [z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')],
  { error: 'must be true or false' },
);

/** A new password (user creation, signup): 8-1024 characters, not trimmed: every character counts. */
export const newPasswordSchema = z.string().min(8).max(1024);

/** A list of at most `max` items, duplicates dropped (first occurrence kept). */
export function uniqueList<T extends z.ZodType<string>>(item: T, max: number) {
  return z
    .array(item)
    .max(max)
    .transform((values) => [...new Set(values)]);
}

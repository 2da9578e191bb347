import type { z } from 'zod';
import { SvcValidationError } from '../kernel/errors.js';
import { validate } from '../kernel/validation.js';

/**
 * Request bodies accept field names case-insensitively (docs/reference/errors.md "Shapes": `Email` and `email` both work):
 * top-level keys are mapped onto the schema's own spelling before parsing.
 */
export function normalizeKeys(body: unknown, knownKeys: readonly string[]): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const byLower = new Map(knownKeys.map((key) => [key.toLowerCase(), key]));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    out[byLower.get(key.toLowerCase()) ?? key] = value;
  }
  return out;
}

type Shape = Record<string, unknown>;

/** Parses a JSON body with a contract schema; a bad body is a 400 naming each wrong field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new SvcValidationError('The request body must be a JSON object.', [
      { path: '(body)', message: 'expected a JSON object' },
    ]);
  }
  // A schema that transforms its object (a pipe) keeps the object's shape as its input.
  const { shape, in: before } = schema as unknown as { shape?: Shape; in?: { shape?: Shape } };
  const known = shape ?? before?.shape;
  const input = known === undefined ? body : normalizeKeys(body, Object.keys(known));
  return validate(schema, input, 'request body', '(body)');
}

/** Parses a query string object with a contract schema; a bad query is a 400 naming each parameter. */
export function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.output<S> {
  return validate(schema, query ?? {}, 'query', '(query)');
}

import type { z } from 'zod';
import { SvcValidationError, type ValidationIssue } from '../kernel/errors.js';

/**
 * Request bodies accept field names case-insensitively (DECISIONS.md: `Email` and `email` both work):
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

/** Zod issues as `path: message` pairs that name the field to fix. */
export function zodIssues(error: z.ZodError): ValidationIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(body)',
    message: issue.message,
  }));
}

function describe(issues: readonly ValidationIssue[], what: string): string {
  const list = issues.map((i) => (i.path === '(body)' ? i.message : `${i.path}: ${i.message}`)).join('; ');
  return `Invalid ${what}: ${list}.`;
}

/** Parses a JSON body with a contract schema; a bad body is a 400 naming each wrong field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new SvcValidationError('The request body must be a JSON object.', [
      { path: '(body)', message: 'expected a JSON object' },
    ]);
  }
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  const input = shape === undefined ? body : normalizeKeys(body, Object.keys(shape));
  const result = schema.safeParse(input);
  if (!result.success) {
    const issues = zodIssues(result.error);
    throw new SvcValidationError(describe(issues, 'request body'), issues);
  }
  return result.data;
}

/** Parses a query string object with a contract schema; a bad query is a 400 naming each parameter. */
export function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.output<S> {
  const result = schema.safeParse(query ?? {});
  if (!result.success) {
    const issues = zodIssues(result.error);
    throw new SvcValidationError(describe(issues, 'query'), issues);
  }
  return result.data;
}

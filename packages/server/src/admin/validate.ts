import type { z } from 'zod';
import { SvcValidationError } from '../kernel/errors.js';

/**
 * Parses an in-process request with its contract schema, so that a host calling the facade gets the
 * same rules and the same 400 (naming each field) as an HTTP caller.
 */
export function parseRequest<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(request)',
    message: issue.message,
  }));
  const list = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
  throw new SvcValidationError(`Invalid ${what}: ${list}.`, issues);
}

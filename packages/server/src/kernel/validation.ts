import type { z } from 'zod';
import { SvcValidationError, type ValidationIssue } from './errors.js';

/** Zod issues as `path: message` pairs that name the field to fix. */
function zodIssues(error: z.ZodError, root: string): ValidationIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || root,
    message: issue.message,
  }));
}

/**
 * Parses `input` with a contract schema; failure is a 400 {@link SvcValidationError} whose message lists
 * each field at fault ("Invalid <what>: name: …; email: …."). HTTP routes and in-process facades share it,
 * so both kinds of caller get the same rules and the same words.
 */
export function validate<S extends z.ZodType>(
  schema: S,
  input: unknown,
  what: string,
  root = '(request)',
): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = zodIssues(result.error, root);
  const list = issues.map((i) => (i.path === root ? i.message : `${i.path}: ${i.message}`)).join('; ');
  throw new SvcValidationError(`Invalid ${what}: ${list}.`, issues);
}

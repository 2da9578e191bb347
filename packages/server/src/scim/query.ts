import { z } from 'zod';
import { ScimError } from './errors.js';
import type { ScimListQuery } from './service-provider.js';

const parameter = z.string().max(4096).optional();

/** The query parameters a SCIM request may carry, each at most once; others are ignored. */
const scimQuerySchema = z.object({
  filter: parameter,
  startIndex: parameter,
  count: parameter,
  attributes: parameter,
  excludedAttributes: parameter,
});

/** Reads the query at the edge: a repeated or oversized parameter is 400 `invalidValue`. */
export function parseScimQuery(query: unknown): ScimListQuery {
  const parsed = scimQuerySchema.safeParse(query ?? {});
  if (!parsed.success) {
    const name = parsed.error.issues[0]?.path.join('.') ?? 'query';
    throw new ScimError(400, `The query parameter ${name} must be given once, as text.`, 'invalidValue');
  }
  return parsed.data;
}

import type { FastifyInstance } from 'fastify';
import { SvcValidationError } from '../kernel/errors.js';

/**
 * How deep a JSON body may nest. Svc's own bodies are a few levels deep; reading one (a schema, a walk
 * of a SCIM resource, JSON.stringify of a headless uiContext) recurses through every level, and a body
 * of tens of thousands of `[` within the size limit would overflow the stack: a 500 instead of a 400.
 */
export const MAX_JSON_BODY_DEPTH = 32;

/**
 * Where objects or arrays nest deeper than `max` levels in `value`, found without recursion: the
 * top-level field holding the nesting ('' for the body itself), or undefined when nothing does.
 */
export function tooDeepAt(value: unknown, max: number): string | undefined {
  const pending: [item: unknown, depth: number, field: string][] = [[value, 0, '']];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth, field] = next;
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= max) return field;
    for (const [key, child] of Object.entries(item))
      pending.push([child, depth + 1, depth === 0 ? key : field]);
  }
  return undefined;
}

export interface JsonBodyOptions {
  /** The media types read as JSON. */
  readonly mediaTypes?: readonly string[];
  /** Read an empty or blank body as no body (undefined) instead of refusing it. */
  readonly blankIsNoBody?: boolean;
  /**
   * The error for a body nested deeper than MAX_JSON_BODY_DEPTH (default: a 400 SvcValidationError), or
   * 'drop the field' to read a JSON object without its fields nested too deeply (a route that answers
   * a malformed field like a missing one).
   */
  readonly tooDeep?: ((message: string, field: string) => Error) | 'drop the field';
}

function tooDeepError(message: string, field: string): Error {
  return new SvcValidationError(message, [
    { path: field === '' ? '(body)' : field, message: 'nested too deeply' },
  ]);
}

/**
 * Makes `app` (an encapsulated plugin) read JSON bodies with Fastify's own parser (prototype
 * poisoning refused) and refuse one nested deeper than MAX_JSON_BODY_DEPTH, whatever parser a host
 * app has in the parent scope.
 */
export function acceptJsonBodies(app: FastifyInstance, options: JsonBodyOptions = {}): void {
  const mediaTypes = options.mediaTypes ?? ['application/json'];
  const tooDeep = options.tooDeep ?? tooDeepError;
  const parseJson = app.getDefaultJsonParser('error', 'error');
  for (const type of mediaTypes) {
    if (app.hasContentTypeParser(type)) app.removeContentTypeParser(type);
  }
  app.addContentTypeParser([...mediaTypes], { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (options.blankIsNoBody === true && text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, (error, parsed) => {
      const field = error === null ? tooDeepAt(parsed, MAX_JSON_BODY_DEPTH) : undefined;
      if (field === undefined) {
        done(error, parsed);
        return;
      }
      if (tooDeep === 'drop the field' && typeof parsed === 'object' && !Array.isArray(parsed)) {
        const kept = Object.entries(parsed as object).filter(
          ([, item]) => tooDeepAt(item, MAX_JSON_BODY_DEPTH - 1) === undefined,
        );
        done(null, Object.fromEntries(kept));
        return;
      }
      const refuse = typeof tooDeep === 'function' ? tooDeep : tooDeepError;
      const where = field === '' ? 'The request body' : `The field ${field} of the request body`;
      done(refuse(`${where} nests deeper than ${MAX_JSON_BODY_DEPTH} levels.`, field), undefined);
    });
  });
}

/**
 * Where input is validated (docs/architecture.md "Where input is validated"):
 *
 * 1. At the edge, once per edge, by the contract's schemas. An HTTP route parses every part of the
 *    request it reads (the body with {@link parseBody}, the query with {@link parseQuery}, the path
 *    parameters with {@link parseParams}, and the headers it interprets) with a schema from
 *    `@svc/contract`, and hands the typed values on. It never passes `request.body`, `request.query`
 *    or `request.params` on unparsed.
 * 2. The in-process facades (`svc.admin…`, `svc.auth…`) are an edge too: a host may call them from
 *    JavaScript, so each method validates its arguments with the same schemas (`validate`,
 *    kernel/validation.ts) before it calls a service.
 * 3. Below the edges nothing checks the shape of its input again: services, the engine and the
 *    repositories take typed values and trust them. They still make their domain decisions (a taken
 *    email, an unknown record, a policy).
 *
 * @module
 */
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

/**
 * Parses a route's path parameters with a contract schema keyed by the route's parameter names; a bad
 * one is a 400 naming it ("Invalid path: organizationId: …"). A well-formed id that names no record is
 * the service's 404, and so is any value of a parameter whose schema takes every string (a lookup key
 * where anything unknown is not found).
 */
export function parseParams<S extends z.ZodType>(schema: S, params: unknown): z.output<S> {
  return validate(schema, params ?? {}, 'path', '(path)');
}

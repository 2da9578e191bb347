import { ScimError } from './errors.js';
import { canonicalName } from './attribute-names.js';

type Json = Record<string, unknown>;

/** RFC 7644 §3.4.2.5 `attributes` / `excludedAttributes` of a request. */
export interface ScimProjection {
  /** Comma-separated attribute names. */
  readonly attributes?: string | undefined;
  readonly excludedAttributes?: string | undefined;
}

/** Returned whatever the projection asks (RFC 7643 §7 "returned: always"). */
const ALWAYS = new Set(['schemas', 'id']);

const CORE_PREFIXES = [
  'urn:ietf:params:scim:schemas:core:2.0:user:',
  'urn:ietf:params:scim:schemas:core:2.0:group:',
];

/** `name.givenName`, `urn:…:enterprise:2.0:User:department` → the keys of the JSON, case-insensitively. */
function attributePath(reference: string, extensions: readonly string[]): string[] {
  const lower = reference.toLowerCase();
  const core = CORE_PREFIXES.find((prefix) => lower.startsWith(prefix));
  if (core !== undefined) return reference.slice(core.length).split('.').map(canonicalName);
  const extension = extensions.find((candidate) => lower.startsWith(candidate.toLowerCase()));
  if (extension !== undefined) {
    const rest = reference.slice(extension.length + 1);
    return rest === '' ? [extension] : [extension, ...rest.split('.').map(canonicalName)];
  }
  return reference.split('.').map(canonicalName);
}

function parseList(value: string | undefined, extensions: readonly string[]): string[][] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const references = value.split(',').map((item) => item.trim());
  if (references.some((item) => item === '')) {
    throw new ScimError(400, 'The attribute list is not valid.', 'invalidValue');
  }
  return references.map((item) => attributePath(item, extensions));
}

function pick(resource: Json, paths: readonly string[][]): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(resource)) {
    if (ALWAYS.has(key)) {
      out[key] = value;
      continue;
    }
    const matching = paths.filter((path) => path[0] === key);
    if (matching.length === 0) continue;
    if (matching.some((path) => path.length === 1)) out[key] = value;
    else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      out[key] = pick(
        value as Json,
        matching.map((path) => path.slice(1)),
      );
    } else if (Array.isArray(value)) {
      const subs = matching.map((path) => path.slice(1));
      out[key] = value.map((item: unknown) =>
        typeof item === 'object' && item !== null ? pick(item as Json, subs) : item,
      );
    }
  }
  return out;
}

function omit(resource: Json, paths: readonly string[][]): Json {
  const out: Json = { ...resource };
  for (const path of paths) {
    const [head, ...rest] = path;
    if (head === undefined || ALWAYS.has(head) || !(head in out)) continue;
    const value = out[head];
    if (rest.length === 0) delete out[head];
    else if (typeof value === 'object' && value !== null && !Array.isArray(value))
      out[head] = omit(value as Json, [rest]);
    else if (Array.isArray(value)) {
      out[head] = value.map((item: unknown) =>
        typeof item === 'object' && item !== null ? omit(item as Json, [rest]) : item,
      );
    }
  }
  return out;
}

/**
 * Applies `attributes` (only those, with id and schemas) or `excludedAttributes` (all but those) to a
 * resource's JSON; names are case-insensitive and may carry their schema URN.
 */
export function project(resource: Json, projection: ScimProjection, extensions: readonly string[]): Json {
  const only = parseList(projection.attributes, extensions);
  if (only !== undefined) return pick(resource, only);
  const excluded = parseList(projection.excludedAttributes, extensions);
  return excluded === undefined ? resource : omit(resource, excluded);
}

/** Whether the request asked for a projection (a Group PATCH then answers 200 with the resource). */
export function isProjected(projection: ScimProjection): boolean {
  return projection.attributes !== undefined || projection.excludedAttributes !== undefined;
}

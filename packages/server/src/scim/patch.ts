import { isDeepStrictEqual } from 'node:util';
import { Tester, type Filter } from 'scim2-parse-filter';
import { ScimError } from './errors.js';
import { parsePatchPath, type ScimPatchPath } from './patch-path.js';
import { canonicalName } from './attribute-names.js';
import { PATCH_OP_SCHEMA } from './schema-names.js';

type Json = Record<string, unknown>;
type Op = 'add' | 'replace' | 'remove';

/**
 * The grammar library's tester with strings compared case-insensitively, as RFC 7643 declares every
 * sub-attribute a PATCH path filters on here (`type`, `value` and `display` of emails, phone numbers and
 * members: `caseExact: false`): `emails[type eq "home"]` finds an item the IdP typed `Home`.
 */
class CaseInsensitiveTester extends Tester {
  override eq(r: unknown, v: Parameters<Tester['eq']>[1]): boolean {
    return equalInAnyCase(r, v);
  }

  override ne(r: unknown, v: Parameters<Tester['ne']>[1]): boolean {
    return !this.eq(r, v);
  }
}

const itemTester = new CaseInsensitiveTester();

function equalInAnyCase(a: unknown, b: unknown): boolean {
  return typeof a === 'string' && typeof b === 'string' ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/** One operation of a PATCH body, its `op` lower-cased (providers send `Add`, `Replace`, `Remove`). */
interface PatchOperation {
  readonly op: Op;
  readonly path: string | undefined;
  readonly value: unknown;
}

/** The largest number of operations one PATCH may carry. */
const MAX_OPERATIONS = 1000;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalidSyntax(detail: string): ScimError {
  return new ScimError(400, detail, 'invalidSyntax');
}

/** Reads a PATCH body (RFC 7644 §3.5.2): the PatchOp schema and 1 to 1000 operations. */
export function parsePatchBody(body: unknown): PatchOperation[] {
  if (!isObject(body)) throw invalidSyntax('The request body must be a JSON object.');
  const entries = Object.entries(body).map(([key, value]) => [key.toLowerCase(), value] as const);
  const fields = new Map(entries);
  const schemas = fields.get('schemas');
  if (!Array.isArray(schemas) || !schemas.includes(PATCH_OP_SCHEMA)) {
    throw invalidSyntax(`A PATCH body must list the schema ${PATCH_OP_SCHEMA}.`);
  }
  const operations = fields.get('operations');
  if (!Array.isArray(operations) || operations.length === 0 || operations.length > MAX_OPERATIONS) {
    throw invalidSyntax(`A PATCH body must carry Operations: 1 to ${MAX_OPERATIONS} operations.`);
  }
  return operations.map((operation: unknown) => {
    if (!isObject(operation)) throw invalidSyntax('Each operation must be a JSON object.');
    const members = new Map(Object.entries(operation).map(([key, value]) => [key.toLowerCase(), value]));
    const op = members.get('op');
    const lower = typeof op === 'string' ? op.toLowerCase() : undefined;
    if (lower !== 'add' && lower !== 'replace' && lower !== 'remove') {
      throw invalidSyntax('Each operation needs an op of add, replace or remove.');
    }
    const path = members.get('path');
    if (path !== undefined && path !== null && typeof path !== 'string') {
      throw invalidSyntax('An operation path must be a string.');
    }
    const value = members.get('value');
    if (lower !== 'remove' && value === undefined) {
      throw invalidSyntax(`The ${lower} operation must carry a value.`);
    }
    const givenPath = typeof path === 'string' && path.trim() !== '' ? path.trim() : undefined;
    if (lower === 'remove' && givenPath === undefined) {
      throw new ScimError(400, 'A remove operation needs a path.', 'noTarget');
    }
    return { op: lower, path: givenPath, value };
  });
}

/**
 * Applies PATCH operations to a copy of a resource's JSON (RFC 7644 §3.5.2), as providers send them:
 * path-less values whose keys are attribute names or paths (`name.givenName`, an extension's
 * `urn:…:User:department`) or a whole extension object; attribute paths, sub-attributes and value
 * filters (`emails[type eq "work"].value`); add to a multi-valued attribute without duplicates; remove of
 * listed values (`members` with `[{value}]`). The result is read again by the resource's schema, which
 * converts string booleans and rejects what does not fit.
 */
export function applyPatch(
  resource: Json,
  operations: readonly PatchOperation[],
  extensions: readonly string[],
): Json {
  const copy = structuredClone(resource);
  for (const operation of operations) {
    if (operation.path === undefined) applyPathless(copy, operation, extensions);
    else applyAt(copy, parsePatchPath(operation.path), operation.op, operation.value, extensions);
  }
  return copy;
}

function extensionNamed(name: string, extensions: readonly string[]): string | undefined {
  return extensions.find((extension) => extension.toLowerCase() === name.toLowerCase());
}

function applyPathless(resource: Json, operation: PatchOperation, extensions: readonly string[]): void {
  if (!isObject(operation.value)) {
    throw invalidSyntax(`A ${operation.op} operation without a path needs an object value.`);
  }
  for (const [key, value] of Object.entries(operation.value)) {
    const extension = extensionNamed(key, extensions);
    if (extension !== undefined && isObject(value)) {
      for (const [attribute, item] of Object.entries(value)) {
        applyAt(
          resource,
          { schema: extension, attribute, valueFilter: null, subAttribute: null },
          operation.op,
          item,
          extensions,
        );
      }
    } else {
      applyAt(resource, parsePatchPath(key), operation.op, value, extensions);
    }
  }
}

/** The object an attribute of `path` lives in: the resource, or its extension object. */
function containerOf(
  resource: Json,
  path: ScimPatchPath,
  op: Op,
  extensions: readonly string[],
): Json | undefined {
  if (path.schema === null) return resource;
  const extension = extensionNamed(path.schema, extensions);
  if (extension === undefined) {
    throw new ScimError(400, `The schema ${path.schema} is not one of this resource's.`, 'invalidPath');
  }
  const existing = resource[extension];
  if (isObject(existing)) return existing;
  if (op === 'remove') return undefined;
  const created: Json = {};
  resource[extension] = created;
  return created;
}

function sameItem(a: unknown, b: unknown): boolean {
  // Members and emails are the same item when their value is (in any case, as a filter compares it): a
  // client's `display` may differ.
  if (isObject(a) && isObject(b) && a.value !== undefined && b.value !== undefined)
    return equalInAnyCase(a.value, b.value);
  return isDeepStrictEqual(a, b);
}

function merged(current: unknown, value: unknown): unknown {
  return isObject(current) && isObject(value) ? { ...current, ...value } : value;
}

function applyAt(
  resource: Json,
  path: ScimPatchPath,
  op: Op,
  value: unknown,
  extensions: readonly string[],
): void {
  const container = containerOf(resource, path, op, extensions);
  if (container === undefined) return;
  const attribute = canonicalName(path.attribute);
  if (path.valueFilter !== null) {
    applyFiltered(container, attribute, path.valueFilter, path.subAttribute, op, value);
    return;
  }
  const current = container[attribute];
  if (path.subAttribute !== null) {
    const sub = canonicalName(path.subAttribute);
    const targets = Array.isArray(current)
      ? current.filter(isObject)
      : [isObject(current) ? current : undefined];
    if (targets[0] === undefined) {
      if (op === 'remove') return;
      container[attribute] = { [sub]: value };
      return;
    }
    for (const target of targets) {
      if (target === undefined) continue;
      if (op === 'remove') delete target[sub];
      else target[sub] = value;
    }
    return;
  }
  if (op === 'remove') {
    if (value !== undefined && Array.isArray(current)) {
      const removed = Array.isArray(value) ? value : [value];
      container[attribute] = current.filter((item) => !removed.some((gone) => sameItem(item, gone)));
    } else {
      delete container[attribute];
    }
    return;
  }
  if (Array.isArray(current) || Array.isArray(value)) {
    const added = Array.isArray(value) ? value : [value];
    if (op === 'replace') {
      container[attribute] = added;
      return;
    }
    const existing = Array.isArray(current) ? current : [];
    container[attribute] = [
      ...existing,
      ...added.filter((item) => !existing.some((old) => sameItem(old, item))),
    ];
    return;
  }
  container[attribute] = merged(current, value);
}

/** `attr[filter]` and `attr[filter].sub`: the items of a multi-valued attribute that match the filter. */
function applyFiltered(
  container: Json,
  attribute: string,
  valueFilter: Filter,
  subAttribute: string | null,
  op: Op,
  value: unknown,
): void {
  const current = container[attribute];
  const items = Array.isArray(current) ? current : [];
  const matches = (item: unknown) => itemTester.test(item, valueFilter);
  const sub = subAttribute === null ? null : canonicalName(subAttribute);
  if (op === 'remove') {
    container[attribute] =
      sub === null
        ? items.filter((item) => !matches(item))
        : items.map((item) => {
            if (!isObject(item) || !matches(item)) return item;
            const rest = { ...item };
            delete rest[sub];
            return rest;
          });
    return;
  }
  let matched = false;
  const updated = items.map((item) => {
    if (!matches(item)) return item;
    matched = true;
    return sub === null ? merged(item, value) : { ...(isObject(item) ? item : {}), [sub]: value };
  });
  if (matched) {
    container[attribute] = updated;
    return;
  }
  // RFC 7644 §3.5.2.1 and what Entra relies on: adding `emails[type eq "work"].value` to a user without
  // a work email creates that email; a filter other than one equality has no item to create.
  if (valueFilter.op !== 'eq') {
    throw new ScimError(400, `No ${attribute} item matches the path's filter.`, 'noTarget');
  }
  const seed = { [canonicalName(valueFilter.attrPath)]: valueFilter.compValue };
  container[attribute] = [...items, sub === null ? merged(seed, value) : { ...seed, [sub]: value }];
}

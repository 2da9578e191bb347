import { parse, type Compare, type Filter } from 'scim2-parse-filter';
import { tokenizer } from 'scim2-parse-filter/lib/src/parser.js';
import { ScimError } from './errors.js';

/**
 * One exact match: only `eq` filters are supported (docs/reference/scim.md "Protocol rules"), on a fixed list
 * of attributes per resource type; `type` is that of the multi-valued attribute's item when the filter names
 * one.
 */
export interface ScimEqFilter<A extends string> {
  readonly attribute: A;
  readonly value: string;
  readonly type?: string;
}

/** The schema URN an attribute path may carry (`urn:…:core:2.0:User:userName`). */
const CORE_PREFIXES = [
  'urn:ietf:params:scim:schemas:core:2.0:user:',
  'urn:ietf:params:scim:schemas:core:2.0:group:',
];

function withoutCorePrefix(attrPath: string): string {
  const lower = attrPath.toLowerCase();
  const prefix = CORE_PREFIXES.find((candidate) => lower.startsWith(candidate));
  return prefix === undefined ? attrPath : attrPath.slice(prefix.length);
}

/**
 * Microsoft Entra ID's documented `externalId eq jyoung`: an unquoted value, which the grammar refuses.
 * Read with the grammar's tokenizer: exactly `<word> eq <word>`, the last word taken as a string.
 */
function unquotedEquality(filter: string): Compare | undefined {
  let tokens;
  try {
    tokens = tokenizer(filter);
  } catch {
    return undefined;
  }
  const [attribute, operator, value, end] = tokens;
  if (
    tokens.length === 4 &&
    attribute?.type === 'Word' &&
    operator?.literal.toLowerCase() === 'eq' &&
    value?.type === 'Word' &&
    end?.type === 'EOT'
  ) {
    return { op: 'eq', attrPath: attribute.literal, compValue: value.literal };
  }
  return undefined;
}

/** `type eq "<string>"`: the one condition on an item, besides its value, that Svc matches. */
function typeEquality(filter: Filter): string | undefined {
  return filter.op === 'eq' &&
    filter.attrPath.toLowerCase() === 'type' &&
    typeof filter.compValue === 'string'
    ? filter.compValue
    : undefined;
}

/** An equality, and the type of the multi-valued attribute's item it is about when the filter names one. */
interface ItemEquality {
  readonly filter: Filter;
  readonly type?: string;
}

/**
 * The value-path forms of an equality on an item of a multi-valued attribute, as `<attr>.value eq` with
 * the item's type: Entra's look-up by work address, `emails[type eq "work"].value eq "<address>"`, which
 * the grammar reads as `emails[type eq "work"] and emails.value eq "<address>"` and Entra means of one
 * item; and `emails[value eq "<address>"]` or `emails[type eq "work" and value eq "<address>"]`. Any other
 * condition on the item is left as it is, for the caller to refuse rather than to match more than asked.
 */
function itemEquality(parsed: Filter): ItemEquality {
  if (parsed.op === 'and' && parsed.filters.length === 2) {
    const [valuePath, equality] = parsed.filters;
    if (
      valuePath?.op === '[]' &&
      equality?.op === 'eq' &&
      equality.attrPath.toLowerCase() === `${valuePath.attrPath}.value`.toLowerCase()
    ) {
      const type = typeEquality(valuePath.valFilter);
      if (type !== undefined) return { filter: equality, type };
    }
  }
  if (parsed.op === '[]') {
    const conditions = parsed.valFilter.op === 'and' ? parsed.valFilter.filters : [parsed.valFilter];
    const value = conditions.find(
      (condition) => condition.op === 'eq' && condition.attrPath.toLowerCase() === 'value',
    );
    const types = conditions.filter((condition) => condition !== value).map(typeEquality);
    if (value?.op === 'eq' && types.length <= 1 && !types.includes(undefined)) {
      const filter = { ...value, attrPath: `${parsed.attrPath}.value` };
      return types[0] === undefined ? { filter } : { filter, type: types[0] };
    }
  }
  return { filter: parsed };
}

/**
 * Parses a `filter` query parameter with the SCIM filter grammar (RFC 7644 §3.4.2.2, scim2-parse-filter)
 * and accepts only `<attribute> eq <string>` on one of `attributes` (attribute names case-insensitive,
 * RFC 7643 §2.1). Anything else, unparsable or unsupported, is 400 `invalidFilter`.
 */
export function parseEqFilter<A extends string>(
  filter: string | undefined,
  attributes: readonly A[],
): ScimEqFilter<A> | undefined {
  if (filter === undefined || filter.trim() === '') return undefined;
  let parsed: Filter;
  let type: string | undefined;
  try {
    ({ filter: parsed, type } = itemEquality(parse(filter)));
  } catch {
    const unquoted = unquotedEquality(filter);
    if (unquoted === undefined) {
      throw new ScimError(400, 'The filter is not a valid SCIM filter expression.', 'invalidFilter');
    }
    parsed = unquoted;
  }
  if (parsed.op !== 'eq') {
    throw new ScimError(
      400,
      'Only filters of the form <attribute> eq "<value>" are supported.',
      'invalidFilter',
    );
  }
  const path = withoutCorePrefix(parsed.attrPath).toLowerCase();
  const attribute = attributes.find((candidate) => candidate.toLowerCase() === path);
  if (attribute === undefined) {
    throw new ScimError(400, `Filtering is supported on ${attributes.join(', ')} only.`, 'invalidFilter');
  }
  if (typeof parsed.compValue !== 'string') {
    throw new ScimError(400, `The value compared with ${attribute} must be a string.`, 'invalidFilter');
  }
  return type === undefined
    ? { attribute, value: parsed.compValue }
    : { attribute, value: parsed.compValue, type };
}

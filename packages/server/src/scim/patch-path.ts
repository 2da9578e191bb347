import type { Filter } from 'scim2-parse-filter';
import { parseFilter, tokenizer, Tokens } from 'scim2-parse-filter/lib/src/parser.js';
import { ScimError } from './errors.js';

/**
 * A PATCH operation's path (RFC 7644 §3.5.2: `PATH = attrPath / valuePath [subAttr]`), e.g. `active`,
 * `name.givenName`, `emails[type eq "work"].value`, `members[value eq "usr_1"]`,
 * `urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager`.
 */
export interface ScimPatchPath {
  /** The extension schema URN the attribute belongs to, or null for the core schema. */
  readonly schema: string | null;
  /** The attribute; for `name.givenName` the attribute is `name` and `subAttribute` is `givenName`. */
  readonly attribute: string;
  /** The value filter of a multi-valued attribute (`[type eq "work"]`). */
  readonly valueFilter: Filter | null;
  readonly subAttribute: string | null;
}

const CORE_SCHEMAS = [
  'urn:ietf:params:scim:schemas:core:2.0:user',
  'urn:ietf:params:scim:schemas:core:2.0:group',
];

function invalidPath(path: string): ScimError {
  return new ScimError(400, `The path '${path}' is not a valid SCIM attribute path.`, 'invalidPath');
}

/** Splits `urn:…:User:manager.value` at the schema URN: the attribute is after its last colon. */
function splitSchema(word: string): { schema: string | null; rest: string } {
  if (!word.toLowerCase().startsWith('urn:')) return { schema: null, rest: word };
  const colon = word.lastIndexOf(':');
  const schema = word.slice(0, colon);
  const rest = word.slice(colon + 1);
  return { schema: CORE_SCHEMAS.includes(schema.toLowerCase()) ? null : schema, rest };
}

/** `name.givenName` → name + givenName; more than one dot is not a SCIM attribute path. */
function splitSubAttribute(path: string, rest: string): { attribute: string; subAttribute: string | null } {
  const parts = rest.split('.');
  const [attribute, subAttribute, extra] = parts;
  if (attribute === undefined || attribute === '' || extra !== undefined || subAttribute === '') {
    throw invalidPath(path);
  }
  return { attribute, subAttribute: subAttribute ?? null };
}

/**
 * Parses a PATCH path with the SCIM filter grammar's tokenizer and parser (scim2-parse-filter): a word,
 * optionally a bracketed value filter, optionally `.subAttr` after it. Anything else is 400 `invalidPath`.
 */
export function parsePatchPath(path: string): ScimPatchPath {
  let tokens: Tokens;
  try {
    tokens = new Tokens(tokenizer(path));
  } catch {
    throw invalidPath(path);
  }
  const first = tokens.shift();
  if (first.type !== 'Word') throw invalidPath(path);
  const { schema, rest } = splitSchema(first.literal);
  const next = tokens.shift();
  if (next.type === 'EOT') return { schema, ...splitSubAttribute(path, rest), valueFilter: null };
  if (next.literal !== '[' || rest.includes('.')) throw invalidPath(path);
  let valueFilter: Filter;
  try {
    valueFilter = parseFilter(tokens);
  } catch {
    throw new ScimError(400, `The value filter of the path '${path}' is not a valid filter.`, 'invalidPath');
  }
  const close = tokens.shift();
  let subAttribute: string | null = null;
  if (close.literal === '].') {
    const sub = tokens.shift();
    if (sub.type !== 'Word' || sub.literal.includes('.')) throw invalidPath(path);
    subAttribute = sub.literal;
  } else if (close.literal !== ']') {
    throw invalidPath(path);
  }
  if (tokens.peek().type !== 'EOT') throw invalidPath(path);
  return { schema, attribute: rest, valueFilter, subAttribute };
}

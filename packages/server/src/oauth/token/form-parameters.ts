import { oauthError } from '../errors.js';

/** A form body as the form parser hands it over: one string per parameter, an array when repeated. */
export type ParsedForm = Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * The parameters that RFC 8707 §2 lets a request repeat ("the resource parameter … can be used multiple
 * times"); every other parameter is single (RFC 6749 §3.2: "MUST NOT be included more than once").
 */
const REPEATABLE = new Set(['resource']);

/**
 * The parameters of an `application/x-www-form-urlencoded` OAuth request (RFC 6749 §3.2):
 * - a repeated parameter (other than `resource`) makes the whole request invalid_request, checked once
 *   for every parameter so that no grant can forget it;
 * - "Parameters sent without a value MUST be treated as if they were omitted";
 * - unknown parameters are ignored (RFC 6749 §3.2: "The authorization server MUST ignore unrecognized
 *   request parameters").
 */
export class FormParameters {
  readonly #values: ReadonlyMap<string, readonly string[]>;

  private constructor(values: ReadonlyMap<string, readonly string[]>) {
    this.#values = values;
  }

  /** Reads a parsed body (undefined for a request without one); throws invalid_request for a repeat. */
  static from(body: unknown): FormParameters {
    const values = new Map<string, string[]>();
    if (body === undefined || body === null) return new FormParameters(values);
    if (typeof body !== 'object' || Array.isArray(body)) {
      throw oauthError.invalidRequest('The request body must be application/x-www-form-urlencoded.');
    }
    for (const [name, raw] of Object.entries(body as ParsedForm)) {
      const list = (typeof raw === 'string' ? [raw] : (raw ?? [])).filter(
        (value): value is string => typeof value === 'string' && value !== '',
      );
      if (list.length > 1 && !REPEATABLE.has(name)) {
        throw oauthError.invalidRequest(`The ${printable(name)} parameter must not be repeated.`);
      }
      if (list.length > 0) values.set(name, list);
    }
    return new FormParameters(values);
  }

  /** The value of a single parameter, or undefined when absent or empty. */
  get(name: string): string | undefined {
    return this.#values.get(name)?.[0];
  }

  /** The value of a parameter the request cannot do without; invalid_request naming it otherwise. */
  require(name: string): string {
    const value = this.get(name);
    if (value === undefined) throw oauthError.invalidRequest(`The ${name} parameter is required.`);
    return value;
  }

  /** Every value of a repeatable parameter (`resource`), empty values removed. */
  all(name: string): readonly string[] {
    return this.#values.get(name) ?? [];
  }
}

/** A parameter name as it may appear in an error description: short, printable ASCII. */
function printable(name: string): string {
  return /^[\x21-\x7e]{1,64}$/.test(name) ? name : 'same';
}

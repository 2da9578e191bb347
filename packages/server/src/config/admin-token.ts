import { SvcConfigError } from '../kernel/errors.js';

/** The least strength of an operator token (docs/reference/operator-api.md "The operator token"). */
export const MIN_ADMIN_TOKEN_BITS = 128;

/**
 * Common alphabets, smallest first: a token is judged as written in the first one that holds all its
 * characters, so that a hex or base64url string counts the bits its generator gave it (4 and 6 a
 * character), not more.
 */
const ALPHABETS: readonly (readonly [RegExp, number])[] = [
  [/^[0-9]+$/, 10],
  [/^[0-9a-f]+$/i, 16],
  [/^[a-z]+$/, 26],
  [/^[A-Z]+$/, 26],
  [/^[a-z0-9]+$/, 36],
  [/^[A-Z0-9]+$/, 36],
  [/^[A-Za-z0-9]+$/, 62],
  [/^[A-Za-z0-9_-]+$/, 64],
  [/^[A-Za-z0-9+/]+$/, 64],
  [/^[\x21-\x7e]+$/, 94],
];

/** Fewer distinct characters than this is a pattern, not a random string. */
const MIN_DISTINCT_CHARACTERS = 8;

const HOW_TO_MAKE_ONE =
  "Generate one with `openssl rand -base64 32`, or `node -e \"console.log(require('node:crypto').randomBytes(32).toString('base64url'))\"`.";

/**
 * What is wrong with an operator token, or undefined when it is strong enough: at least 128 bits by
 * its length and alphabet (32 hex digits, 22 base64url characters), one word of printable ASCII, and
 * not an obvious pattern (fewer than 8 distinct characters, or one shorter string repeated). The form
 * is all that can be judged: the message says to generate the token rather than to choose it.
 */
export function adminTokenIssue(token: string): string | undefined {
  const unpadded = token.replace(/={1,2}$/, '');
  const alphabet = ALPHABETS.find(([pattern]) => pattern.test(unpadded))?.[1];
  if (alphabet === undefined) {
    return `SVC_ADMIN_TOKEN must be one word of printable ASCII, without spaces, and carry at least ${MIN_ADMIN_TOKEN_BITS} bits. ${HOW_TO_MAKE_ONE}`;
  }
  const bits = Math.floor(unpadded.length * Math.log2(alphabet));
  const patterned = new Set(unpadded).size < MIN_DISTINCT_CHARACTERS || /^(.+)\1+$/.test(unpadded);
  if (bits < MIN_ADMIN_TOKEN_BITS || patterned) {
    const judged = patterned ? 'a pattern, not a random string' : `about ${bits} bits`;
    return `SVC_ADMIN_TOKEN is too weak (${judged}): an operator token must carry at least ${MIN_ADMIN_TOKEN_BITS} bits, such as 32 hex digits or 22 base64url characters from a random generator. ${HOW_TO_MAKE_ONE}`;
  }
  return undefined;
}

/** The operator token of the options, refused at start when it is too weak. */
export function resolveAdminToken(token: string | undefined): string | undefined {
  if (token === undefined) return undefined;
  const issue = adminTokenIssue(token);
  if (issue !== undefined) throw new SvcConfigError(issue);
  return token;
}

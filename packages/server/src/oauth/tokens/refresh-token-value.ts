import { sha256Hex } from '../../kernel/crypto.js';
import type { RefreshTokenKey } from './repository.js';

/**
 * A refresh token names its row: `<row id>.<secret>` (the secret is base64url, which has no `.`). The
 * store finds the row by its id, whose index grows at its end, instead of by the token's hash, whose
 * index took every new token on a random page (docs/reference/storage.md "Ids").
 * The id is no secret; the 256-bit secret is, and only the SHA-256 of the whole token is stored.
 */
export function refreshTokenValue(rowId: string, secret: string): string {
  return `${rowId}.${secret}`;
}

/** Row ids are printable ASCII, as every token Svc issues. */
const ROW_ID = /^[\x21-\x7e]+$/;

/**
 * What a presented refresh token is looked up by; a token without a `.` predates the row ids. The one
 * place a presented token's text reaches a query as it is: an id no row can have (a control character,
 * which PostgreSQL refuses in text, or any other non-printable one) is not looked up, so the token is
 * found by its hash alone, which matches nothing — an unknown token, at every route that takes one.
 */
export function refreshTokenKey(token: string): RefreshTokenKey {
  const dot = token.lastIndexOf('.');
  const id = dot > 0 ? token.slice(0, dot) : null;
  return { id: id !== null && ROW_ID.test(id) ? id : null, tokenHash: sha256Hex(token) };
}

import { sha256Hex } from '../../kernel/crypto.js';
import type { RefreshTokenKey } from './repository.js';

/**
 * A refresh token names its row: `<row id>.<secret>` (the secret is base64url, which has no `.`). The
 * store finds the row by its id, whose index grows at its end, instead of by the token's hash, whose
 * index took every new token on a random page (docs/decisions.md, "Refresh tokens name their row").
 * The id is no secret; the 256-bit secret is, and only the SHA-256 of the whole token is stored.
 */
export function refreshTokenValue(rowId: string, secret: string): string {
  return `${rowId}.${secret}`;
}

/** What a presented refresh token is looked up by; a token without a `.` predates the row ids. */
export function refreshTokenKey(token: string): RefreshTokenKey {
  const dot = token.lastIndexOf('.');
  return { id: dot > 0 ? token.slice(0, dot) : null, tokenHash: sha256Hex(token) };
}

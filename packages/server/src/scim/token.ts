import { sha256Hex } from '../kernel/crypto.js';
import type { Ids } from '../kernel/ids.js';

/** Prefix of the tokens Svc issues, so that secret scanners and operators recognize one. */
const TOKEN_PREFIX = 'svcscim_';

/** A new SCIM bearer token: 256 random bits, base64url, prefixed (51 characters). */
export function newScimToken(ids: Ids): string {
  return `${TOKEN_PREFIX}${ids.secret()}`;
}

/** How a token is stored and looked up: SHA-256 hex only. */
export function scimTokenHash(token: string): string {
  return sha256Hex(token);
}

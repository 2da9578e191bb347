import { randomFillSync, randomUUID } from 'node:crypto';

/** Randomness is injected beside the clock so that tests can make ids predictable when they need to. */
export interface Ids {
  /** A new unique identifier for a stored record. */
  id(prefix: string): string;
  /** A new secret token with 256 bits of entropy, base64url. */
  secret(): string;
}

/**
 * Records written at a high rate whose creation time is no secret: a session (its `sid` travels with
 * an `auth_time` or `iat` about as old) and a refresh token's row (its id travels only inside that
 * token, whose holder knows when it got it).
 * Their ids lead with the time, so that each new row's index entry lands at the end of its B-tree
 * instead of on a random page that the next checkpoint must write back
 * (docs/decisions/storage-time-ordered-ids.md).
 */
const TIME_ORDERED = new Set(['ses', 'rft']);

/**
 * Random bytes for ids and secrets come from a buffer of CSPRNG output that is refilled once spent, as
 * Node's own `randomUUID` does: each call into OpenSSL costs about 2 µs, and a token grant draws one or
 * two time-ordered ids and a secret. Every byte is handed out once.
 */
const entropy = Buffer.allocUnsafe(4096);
let drawn = entropy.length;

/** `size` fresh random bytes, valid only until the next draw (callers encode them at once). */
function randomSlice(size: number): Buffer {
  if (drawn + size > entropy.length) {
    randomFillSync(entropy);
    drawn = 0;
  }
  drawn += size;
  return entropy.subarray(drawn - size, drawn);
}

/** 32 hex digits like a random id: 12 of milliseconds since the epoch, then 80 random bits. */
const timeOrderedHex = (): string =>
  Date.now().toString(16).padStart(12, '0') + randomSlice(10).toString('hex');

export const randomIds: Ids = {
  id: (prefix) =>
    `${prefix}_${TIME_ORDERED.has(prefix) ? timeOrderedHex() : randomUUID().replaceAll('-', '')}`,
  secret: () => randomSlice(32).toString('base64url'),
};

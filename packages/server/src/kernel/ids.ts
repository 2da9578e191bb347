import { randomBytes, randomUUID } from 'node:crypto';

/** Randomness is injected beside the clock so that tests can make ids predictable when they need to. */
export interface Ids {
  /** A new unique identifier for a stored record. */
  id(prefix: string): string;
  /** A new secret token with 256 bits of entropy, base64url. */
  secret(): string;
}

export const randomIds: Ids = {
  id: (prefix) => `${prefix}_${randomUUID().replaceAll('-', '')}`,
  secret: () => randomBytes(32).toString('base64url'),
};

import type { Clock } from '../kernel/clock.js';
import { MINUTE_MS } from '../kernel/clock.js';
import { sha256Hex } from '../kernel/crypto.js';
import type { Ids } from '../kernel/ids.js';
import type {
  PendingAuthPurpose,
  PendingAuthTokenRecord,
  PendingAuthTokenStore,
  PendingSignInContext,
} from './repository.js';

/** How long a user has to choose an organization (or, later, pass MFA) before signing in again. */
export const PENDING_AUTH_TOKEN_LIFETIME_MS = 10 * MINUTE_MS;

export interface PendingAuthTokensDeps {
  readonly store: PendingAuthTokenStore;
  readonly clock: Clock;
  readonly ids: Ids;
}

export interface IssuePendingInput {
  readonly purpose: PendingAuthPurpose;
  readonly userId: string;
  readonly clientId: string;
  readonly context: PendingSignInContext;
}

/**
 * Temporary tokens between the two halves of a sign-in: 256 random bits, stored as SHA-256, single use,
 * 10 minutes, bound to a purpose, a user, a client and the sign-in context (flow, amr, auth time and the
 * caller's resume data).
 */
export class PendingAuthTokens {
  readonly #deps: PendingAuthTokensDeps;

  constructor(deps: PendingAuthTokensDeps) {
    this.#deps = deps;
  }

  async issue(input: IssuePendingInput): Promise<{ token: string; expiresAt: number }> {
    const now = this.#deps.clock.now();
    const token = this.#deps.ids.secret();
    const expiresAt = now + PENDING_AUTH_TOKEN_LIFETIME_MS;
    await this.#deps.store.insert({
      tokenHash: sha256Hex(token),
      purpose: input.purpose,
      userId: input.userId,
      clientId: input.clientId,
      context: input.context,
      createdAt: now,
      expiresAt,
      consumedAt: null,
    });
    return { token, expiresAt };
  }

  /** The active token of this purpose and flow, without using it; undefined otherwise. */
  async peek(
    token: string,
    purpose: PendingAuthPurpose,
    flow: string,
  ): Promise<PendingAuthTokenRecord | undefined> {
    const record = await this.#deps.store.findActive(sha256Hex(token), this.#deps.clock.now());
    return record !== undefined && record.purpose === purpose && record.context.flow === flow
      ? record
      : undefined;
  }

  /**
   * Uses the token once. Callers peek first (checking purpose and flow); this conditional update then
   * decides concurrent attempts: exactly one gets the record.
   */
  consume(token: string): Promise<PendingAuthTokenRecord | undefined> {
    return this.#deps.store.consume(sha256Hex(token), this.#deps.clock.now());
  }
}

import type { ResolvedSecuritySettings } from '@svc/contract';
import type { UserRepository } from '../directory/repository.js';
import type { Clock } from '../kernel/clock.js';
import { sha256Hex } from '../kernel/crypto.js';
import type { Ids } from '../kernel/ids.js';
import type { BrowserSessionStore } from './repository.js';

export interface BrowserSessionsDeps {
  readonly store: BrowserSessionStore;
  readonly users: Pick<UserRepository, 'findById'>;
  readonly settings: { getResolved(): Promise<ResolvedSecuritySettings> };
  readonly clock: Clock;
  readonly ids: Ids;
}

/** A live issuer session: who signed in at the issuer, how and when. */
export interface ResolvedBrowserSession {
  readonly sessionId: string;
  readonly userId: string;
  readonly amr: readonly string[];
  /** Epoch milliseconds of the authentication (compared with max_age). */
  readonly authTime: number;
  readonly expiresAt: number;
}

/**
 * The issuer session behind the hosted pages' session cookie (docs/reference/tokens-and-sessions.md "Sessions": reusable issuer
 * session cookie (HttpOnly) for silent reuse by first-party clients). The cookie holds a 256-bit random
 * token; storage keeps its SHA-256. It lives SessionIdleTimeout from the sign-in (never past
 * SessionAbsoluteLifetime) and does not slide: prompt=login and max_age let clients ask for fresher
 * authentication. A deactivated user's session resolves to nothing.
 */
export class BrowserSessions {
  readonly #deps: BrowserSessionsDeps;

  constructor(deps: BrowserSessionsDeps) {
    this.#deps = deps;
  }

  /** Starts an issuer session; the token goes into the cookie and nowhere else. */
  async create(
    userId: string,
    amr: readonly string[],
    authTime: number,
  ): Promise<{ token: string; expiresAt: number }> {
    const now = this.#deps.clock.now();
    const settings = await this.#deps.settings.getResolved();
    const token = this.#deps.ids.secret();
    const expiresAt = now + Math.min(settings.sessionIdleTimeoutMs, settings.sessionAbsoluteLifetimeMs);
    await this.#deps.store.insert({
      id: this.#deps.ids.id('bss'),
      tokenHash: sha256Hex(token),
      userId,
      amr: [...amr],
      authTime,
      createdAt: now,
      expiresAt,
      revokedAt: null,
    });
    return { token, expiresAt };
  }

  /** The live session of a cookie value, or null (unknown, expired, ended, or user deactivated). */
  async resolve(token: string | null | undefined): Promise<ResolvedBrowserSession | null> {
    if (token == null || token === '' || token.length > 512) return null;
    const record = await this.#deps.store.findActive(sha256Hex(token), this.#deps.clock.now());
    if (record === undefined) return null;
    const user = await this.#deps.users.findById(record.userId);
    if (user === undefined || !user.active) return null;
    return {
      sessionId: record.id,
      userId: record.userId,
      amr: record.amr,
      authTime: record.authTime,
      expiresAt: record.expiresAt,
    };
  }

  /** Ends the session of a cookie value (hosted /logout); unknown values are a no-op. */
  async end(token: string | null | undefined): Promise<void> {
    if (token == null || token === '' || token.length > 512) return;
    await this.#deps.store.revoke(sha256Hex(token), this.#deps.clock.now());
  }

  /** Ends every issuer session of the user (logout-all). */
  endAllForUser(userId: string): Promise<number> {
    return this.#deps.store.revokeForUser(userId, this.#deps.clock.now());
  }
}

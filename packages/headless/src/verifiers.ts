/**
 * The PKCE verifiers the client holds between /start and the redirect with a code, by requestId.
 */

/** A Web Storage subset (`sessionStorage`, `localStorage`) or anything with the same three methods. */
export interface SvcHeadlessStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** The storage key of a request's verifier. */
export const VERIFIER_KEY_PREFIX = 'svc-headless:pkce:';

/**
 * Verifiers in memory, mirrored into the optional storage so that a page reload in the middle of a
 * sign-in (a new client, the same requestId) can still complete the exchange. sessionStorage suits
 * best: per tab, gone with it, never sent to a server.
 */
export class VerifierStore {
  readonly #memory = new Map<string, string>();
  readonly #storage: SvcHeadlessStorage | undefined;

  constructor(storage: SvcHeadlessStorage | undefined) {
    this.#storage = storage;
  }

  /** Keeps `codeVerifier` for the request until its redirect. */
  remember(requestId: string, codeVerifier: string): void {
    this.#memory.set(requestId, codeVerifier);
    this.#storage?.setItem(VERIFIER_KEY_PREFIX + requestId, codeVerifier);
  }

  /** The request's verifier, if this client (or the storage) has it. */
  get(requestId: string): string | undefined {
    return (
      this.#memory.get(requestId) ?? this.#storage?.getItem(VERIFIER_KEY_PREFIX + requestId) ?? undefined
    );
  }

  /** Drops the request's verifier: the request is over and a verifier is good for one exchange only. */
  forget(requestId: string): void {
    this.#memory.delete(requestId);
    this.#storage?.removeItem(VERIFIER_KEY_PREFIX + requestId);
  }
}

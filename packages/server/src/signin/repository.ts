/**
 * The storage the sign-in engine owns: pending sign-in tokens, issuer (browser) sessions and consent
 * grants. Times are epoch milliseconds; tokens are known only by their SHA-256 hex.
 */

/** A JSON object the caller of the engine stores with a pending sign-in and gets back to resume it. */
export type ResumeData = Readonly<Record<string, string | number | boolean | null>>;

/** What a pending sign-in token carries between the two halves of a sign-in. */
export interface PendingSignInContext {
  /** The adapter flow that issued it ('direct', 'authorize', 'headless'…); redeemable only there. */
  readonly flow: string;
  readonly amr: readonly string[];
  /** Epoch milliseconds of the authentication. */
  readonly authTime: number;
  /** The caller's resume data (for example `{ authRequestId }`). */
  readonly resume: ResumeData | null;
}

export type PendingAuthPurpose = 'organization_selection' | (string & {});

export interface PendingAuthTokenRecord {
  readonly tokenHash: string;
  readonly purpose: PendingAuthPurpose;
  readonly userId: string;
  readonly clientId: string;
  readonly context: PendingSignInContext;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly consumedAt: number | null;
}

export interface PendingAuthTokenStore {
  insert(record: PendingAuthTokenRecord): Promise<void>;
  /** The token when unconsumed and unexpired at `now`. */
  findActive(tokenHash: string, now: number): Promise<PendingAuthTokenRecord | undefined>;
  /** Single use: consumes an unconsumed, unexpired token and returns it; undefined for every other caller. */
  consume(tokenHash: string, now: number): Promise<PendingAuthTokenRecord | undefined>;
}

export interface BrowserSessionRecord {
  readonly id: string;
  readonly tokenHash: string;
  readonly userId: string;
  readonly amr: readonly string[];
  readonly authTime: number;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly revokedAt: number | null;
}

export interface BrowserSessionStore {
  insert(record: BrowserSessionRecord): Promise<void>;
  /** The session when unrevoked and unexpired at `now`. */
  findActive(tokenHash: string, now: number): Promise<BrowserSessionRecord | undefined>;
  revoke(tokenHash: string, now: number): Promise<void>;
  revokeForUser(userId: string, now: number): Promise<number>;
}

export interface ConsentGrantRecord {
  readonly id: string;
  readonly userId: string;
  /** The OAuth client_id. */
  readonly clientId: string;
  readonly scopes: readonly string[];
  readonly grantedAt: number;
  readonly updatedAt: number;
  readonly revokedAt: number | null;
}

/** A grant with the name of its client, as lists show it. */
export interface ConsentGrantView extends ConsentGrantRecord {
  readonly clientName: string;
}

export interface ConsentGrantStore {
  /** The user's active (unrevoked) grant to the client. */
  findActive(userId: string, clientId: string): Promise<ConsentGrantRecord | undefined>;
  /** Inserts an active grant; false when the user already has an active grant to the client. */
  insertIfNoActive(record: ConsentGrantRecord): Promise<boolean>;
  /**
   * Replaces the scopes of an active grant if they still are `previous` (optimistic concurrency, so that
   * concurrent merges never lose a scope); false when they changed or the grant was revoked meanwhile.
   */
  updateScopes(
    id: string,
    previous: readonly string[],
    scopes: readonly string[],
    now: number,
  ): Promise<boolean>;
  /** The user's active grants with client names, most recently updated first. */
  listActive(userId: string): Promise<ConsentGrantView[]>;
  /** Revokes the user's active grant; false when unknown, another user's or already revoked. */
  revoke(userId: string, grantId: string, now: number): Promise<boolean>;
}

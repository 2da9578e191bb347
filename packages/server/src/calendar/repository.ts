import type { CalendarConnectionStatus, CalendarProviderType, Page, PageQuery } from '@svc/contract';

/** A stored calendar connection. Times are epoch milliseconds. */
export interface CalendarConnectionRecord {
  readonly id: string;
  readonly userId: string;
  /** The OIDC connection (Google or Microsoft) the grant goes through. */
  readonly connectionId: string;
  readonly providerType: CalendarProviderType;
  /** The provider's `sub` of the account whose calendar it is. */
  readonly accountSubject: string;
  /** The `iss` of its ID token (a Microsoft multi-tenant connection: the account's own tenant's). */
  readonly accountIssuer: string;
  readonly accountEmail: string | null;
  readonly scopes: readonly string[];
  /** The access and refresh tokens, sealed with the master key (sealed-tokens.ts); null once revoked. */
  readonly tokensSealed: string | null;
  /** A refresh token is held. */
  readonly offlineAccess: boolean;
  readonly accessTokenExpiresAt: number | null;
  readonly status: CalendarConnectionStatus;
  /** Bumped by every write of tokens and by a revocation (the condition of a refresh's write). */
  readonly version: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly lastRefreshedAt: number | null;
  readonly revokedAt: number | null;
}

/** Tokens and what goes with them, written together. */
export interface CalendarTokensWrite {
  readonly tokensSealed: string;
  readonly offlineAccess: boolean;
  readonly accessTokenExpiresAt: number;
  readonly scopes: readonly string[];
}

/** A consent given again with the same account: new tokens, and what the provider now says of it. */
export interface CalendarReconnectWrite extends CalendarTokensWrite {
  readonly accountIssuer: string;
  readonly accountEmail: string | null;
}

/** The storage of calendar connections, owned by the calendar domain. */
export interface CalendarConnectionRepository {
  /** Inserts the connection; false when the user already has one for this account and provider connection. */
  insert(record: CalendarConnectionRecord): Promise<boolean>;
  findById(id: string): Promise<CalendarConnectionRecord | undefined>;
  findByAccount(
    userId: string,
    connectionId: string,
    accountSubject: string,
  ): Promise<CalendarConnectionRecord | undefined>;
  /** Newest first, keyset on (createdAt, id); one user's when `userId` is given. */
  list(query: PageQuery & { readonly userId?: string | undefined }): Promise<Page<CalendarConnectionRecord>>;
  /** A new consent: the tokens replaced whatever the state, status active, version bumped. */
  reconnect(
    id: string,
    write: CalendarReconnectWrite,
    now: number,
  ): Promise<CalendarConnectionRecord | undefined>;
  /**
   * A refresh's answer, stored only if the row is still at `expectedVersion` (nothing revoked or stored
   * newer tokens meanwhile): status active, version bumped. False when the row moved on.
   */
  storeRefreshed(
    id: string,
    expectedVersion: number,
    write: CalendarTokensWrite,
    now: number,
  ): Promise<boolean>;
  /**
   * Marks an active connection at `expectedVersion` as needing a new consent. The version is left as it
   * is, so that a refresh that succeeded concurrently still stores its tokens over this mark.
   */
  markReauthorizationRequired(id: string, expectedVersion: number, now: number): Promise<boolean>;
  /** Drops the tokens: status revoked, version bumped. Undefined when there is no such connection. */
  revoke(id: string, now: number): Promise<CalendarConnectionRecord | undefined>;
  /** Deletes the connection; answers what was deleted, undefined when it did not exist. */
  delete(id: string): Promise<CalendarConnectionRecord | undefined>;
}

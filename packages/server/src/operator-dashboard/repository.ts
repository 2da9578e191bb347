/** An operator dashboard session as stored. Times are epoch milliseconds. */
export interface DashboardSessionRecord {
  readonly id: string;
  /** SHA-256 hex of the cookie's secret. */
  readonly secretHash: string;
  /** The dashboard client's token session the sign-in created: revoking it ends this session too. */
  readonly tokenSessionId: string;
  readonly userId: string;
  readonly createdAt: number;
  readonly expiresAt: number;
}

/** A live session with its operator, as every dashboard request reads it (one query). */
export interface LiveDashboardSession {
  readonly session: DashboardSessionRecord;
  readonly user: { readonly id: string; readonly displayName: string; readonly email: string | null };
}

/** The storage the operator dashboard owns. */
export interface DashboardSessionRepository {
  insert(record: DashboardSessionRecord): Promise<void>;
  /**
   * The session of a secret's hash while it is live: unexpired, its token session neither revoked nor
   * past its absolute lifetime, its user active and still an operator. Undefined otherwise.
   */
  findLive(secretHash: string, now: number): Promise<LiveDashboardSession | undefined>;
  /** Deletes the session of a secret's hash; the deleted record, or undefined. */
  delete(secretHash: string): Promise<DashboardSessionRecord | undefined>;
}

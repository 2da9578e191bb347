/** A calendar consent between its redirect to the provider and its callback. Times are epoch milliseconds. */
export interface CalendarConsentStateRecord {
  /** SHA-256 hex of the `state` sent to the provider. */
  readonly stateHash: string;
  readonly userId: string;
  /** The app the user returns to. */
  readonly clientId: string;
  readonly connectionId: string;
  readonly returnUri: string;
  readonly redirectUri: string;
  /** The calendar scopes asked for. */
  readonly scopes: readonly string[];
  /** The nonce and PKCE verifier, sealed with the master key. */
  readonly secretsSealed: string;
  /** SHA-256 hex of the id of the browser that opened the consent's link (null: stored before 0042). */
  readonly browserBinding: string | null;
  readonly createdAt: number;
  readonly expiresAt: number;
}

/** Storage of calendar consents in flight: each is taken once, before it expires. */
export interface CalendarConsentStateRepository {
  insert(record: CalendarConsentStateRecord): Promise<void>;
  /** Marks the state used and returns it if it is live at `now`; undefined to every other caller. */
  consume(stateHash: string, now: number): Promise<CalendarConsentStateRecord | undefined>;
}

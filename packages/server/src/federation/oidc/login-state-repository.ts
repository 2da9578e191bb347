/** A sign-in through a provider between its redirect and its callback. Times are epoch milliseconds. */
export interface OidcLoginStateRecord {
  /** SHA-256 hex of the `state` sent to the provider. */
  readonly stateHash: string;
  readonly connectionId: string;
  /** The authorization request the sign-in continues (null: not bound to one). */
  readonly authRequestId: string | null;
  readonly redirectUri: string;
  /** The nonce and PKCE verifier, sealed with the master key. */
  readonly secretsSealed: string;
  readonly createdAt: number;
  readonly expiresAt: number;
}

/** Storage of sign-ins in flight: each is taken once, before it expires. */
export interface OidcLoginStateRepository {
  insert(record: OidcLoginStateRecord): Promise<void>;
  /** Marks the state used and returns it if it is live at `now`; undefined to every other caller. */
  consume(stateHash: string, now: number): Promise<OidcLoginStateRecord | undefined>;
}

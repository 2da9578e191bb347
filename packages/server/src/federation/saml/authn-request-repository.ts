/** An AuthnRequest Svc sent and waits to see answered. Times are epoch milliseconds. */
export interface SamlAuthnRequestRecord {
  /** SHA-256 hex of the request's ID, which the answer names in InResponseTo. */
  readonly requestIdHash: string;
  readonly connectionId: string;
  /** SHA-256 hex of the RelayState sent with the request. */
  readonly relayStateHash: string;
  /** What the sign-in continues with, as JSON (opaque here). */
  readonly continuationJson: string;
  readonly createdAt: number;
  readonly expiresAt: number;
}

/** Storage of AuthnRequests in flight: each is taken once, before it expires. */
export interface SamlAuthnRequestRepository {
  insert(record: SamlAuthnRequestRecord): Promise<void>;
  /** Marks the request answered and returns it if it is live at `now`; undefined to every other caller. */
  consume(requestIdHash: string, now: number): Promise<SamlAuthnRequestRecord | undefined>;
}

/** An assertion Svc accepted, remembered until it could no longer be accepted anyway. */
export interface SamlUsedAssertion {
  readonly connectionId: string;
  /** SHA-256 hex of the assertion's ID. */
  readonly assertionIdHash: string;
  readonly usedAt: number;
  readonly expiresAt: number;
}

/** Storage of used assertion ids (replay protection across nodes). */
export interface SamlUsedAssertionRepository {
  /** Remembers the assertion; false when it was already remembered (one statement decides between racers). */
  remember(entry: SamlUsedAssertion): Promise<boolean>;
}

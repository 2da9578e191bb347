import type { TokenStore } from '../tokens/repository.js';

/**
 * The storage the device flow owns: one row per device authorization request (RFC 8628). Times are
 * epoch milliseconds; the device code and the user code are known only by their SHA-256 hex.
 */

/**
 * Where a request stands in storage. `expired` is not stored: a row is expired once `expiresAt` has
 * passed, whatever its status. `consumed` is an approved request whose tokens were issued.
 */
export type DeviceAuthorizationStatus = 'pending' | 'approved' | 'denied' | 'consumed';

/** Who approved a request, recorded on the row and carried into the session its poll creates. */
export interface DeviceApproval {
  readonly userId: string;
  /** Null for a user-scoped session. */
  readonly organizationId: string | null;
  /** Authentication methods of the approving sign-in (RFC 8176). */
  readonly amr: readonly string[];
  /** Epoch milliseconds of the approving user's original authentication. */
  readonly authTime: number;
}

export interface DeviceAuthorizationRecord {
  readonly deviceCodeHash: string;
  /** SHA-256 of the normalized user code (8 letters, no dash). */
  readonly userCodeHash: string;
  readonly clientId: string;
  /** The granted scopes (the request intersected with the client's allow-list at start). */
  readonly scopes: readonly string[];
  /** The RFC 8707 resource bound at start; null = the client's audience. */
  readonly resource: string | null;
  readonly status: DeviceAuthorizationStatus;
  /** The polling interval the client must keep; grows by 5 seconds with every slow_down. */
  readonly intervalSeconds: number;
  /** The last poll while pending (the slow_down clock); null before the first. */
  readonly lastPolledAt: number | null;
  /** Set by approval (and by denial, for the user who denied, when known). */
  readonly userId: string | null;
  readonly organizationId: string | null;
  readonly amr: readonly string[] | null;
  readonly authTime: number | null;
  readonly decidedAt: number | null;
  readonly consumedAt: number | null;
  /** The token session the successful poll created. */
  readonly sessionId: string | null;
  readonly createdAt: number;
  readonly expiresAt: number;
}

/** The decision a user takes on a pending request. */
export type DeviceDecision =
  | { readonly status: 'approved'; readonly approval: DeviceApproval }
  | { readonly status: 'denied'; readonly userId: string | null };

/** The stores a successful poll writes in one transaction: the request row and the new token session. */
export interface DeviceIssuanceStores {
  readonly devices: DeviceAuthorizationStore;
  readonly tokens: TokenStore;
}

export interface DeviceAuthorizationStore {
  /**
   * Runs `work` in one transaction over stores bound to it; a throw rolls everything back. Inside `work`
   * use only the given stores, and never nest transactions.
   */
  transaction<T>(work: (stores: DeviceIssuanceStores) => Promise<T>): Promise<T>;

  /** Inserts the request; false when its user code hash is taken (the caller draws another code). */
  insert(record: DeviceAuthorizationRecord): Promise<boolean>;
  findByDeviceCode(deviceCodeHash: string): Promise<DeviceAuthorizationRecord | undefined>;
  findByUserCode(userCodeHash: string): Promise<DeviceAuthorizationRecord | undefined>;
  /** Records the decision only if the request is pending and unexpired at `now`; true for one caller. */
  decide(userCodeHash: string, decision: DeviceDecision, now: number): Promise<boolean>;
  /**
   * The polling gate: sets `lastPolledAt` to `now` only if the request is still pending and its
   * `lastPolledAt` still equals `previous` (compare-and-set), so that of concurrent polls one passes.
   */
  recordPoll(deviceCodeHash: string, previous: number | null, now: number): Promise<boolean>;
  /**
   * RFC 8628 §3.5 slow_down: adds `incrementSeconds` to the interval of a pending request and sets
   * `lastPolledAt` to `now`, atomically; returns the new interval (undefined when no pending row).
   */
  slowDown(deviceCodeHash: string, now: number, incrementSeconds: number): Promise<number | undefined>;
  /** Single use: marks an approved, unexpired request consumed; true for exactly one caller. */
  consumeApproved(deviceCodeHash: string, now: number): Promise<boolean>;
  /** Remembers the session the successful poll created. */
  setSession(deviceCodeHash: string, sessionId: string): Promise<void>;
}

import type { IssuedTokens } from '../tokens/issued-tokens.js';

/** A started device authorization (RFC 8628 §3.2), before an adapter shapes it for its wire. */
export interface DeviceAuthorizationStarted {
  /** The raw device code, handed out once: storage keeps its SHA-256. */
  readonly deviceCode: string;
  /** The display form `XXXX-XXXX`. */
  readonly userCode: string;
  /** `{issuer}/device`. */
  readonly verificationUri: string;
  /** `{issuer}/device?user_code=XXXX-XXXX`. */
  readonly verificationUriComplete: string;
  /** Seconds until the codes expire. */
  readonly expiresIn: number;
  /** Seconds the device must wait between polls. */
  readonly interval: number;
  /** Epoch milliseconds. */
  readonly expiresAt: number;
}

/**
 * Where a request stands for the user who typed its code. `approved` also covers a request whose tokens
 * were issued; `expired` wins over every other state once the lifetime has passed.
 */
export type DeviceAuthorizationViewStatus = 'pending' | 'approved' | 'denied' | 'expired';

/** What the verification page shows about a user code (ResolveDeviceAuthorizationAsync). */
export interface DeviceAuthorizationView {
  readonly clientId: string;
  readonly clientName: string;
  /** The scopes the device asked for that the client may have. */
  readonly scopes: readonly string[];
  /** The bound RFC 8707 resource; null = the client's audience. */
  readonly resource: string | null;
  /** The code in display form, `XXXX-XXXX`, whatever the user typed. */
  readonly userCode: string;
  /** Epoch milliseconds. */
  readonly expiresAt: number;
  readonly status: DeviceAuthorizationViewStatus;
}

/**
 * The outcome of an approval or denial: `approved` / `denied` when this call decided; `not_found` for a
 * code that is malformed or names no request; `expired`; `already_decided` when the request was approved
 * or denied before.
 */
export type DeviceDecisionStatus = 'approved' | 'denied' | 'not_found' | 'expired' | 'already_decided';

/** The OAuth error codes a poll can answer with (RFC 8628 §3.5, RFC 6749 §5.2, RFC 8707). */
export type DevicePollRefusalStatus =
  | 'authorization_pending'
  | 'access_denied'
  | 'expired_token'
  | 'invalid_grant'
  | 'invalid_client'
  | 'unauthorized_client'
  | 'invalid_target';

/**
 * One poll of the token endpoint (ARCHITECTURE.md: "a device poll returns a status"). Every expected
 * outcome is a value; the /token grant maps each refusal to the OAuth error of the same name.
 */
export type DevicePollResult =
  | { readonly status: 'complete'; readonly tokens: IssuedTokens }
  | {
      readonly status: 'slow_down';
      /** The new interval in seconds, 5 more than before (RFC 8628 §3.5). */
      readonly interval: number;
      readonly description: string;
    }
  | { readonly status: DevicePollRefusalStatus; readonly description: string };

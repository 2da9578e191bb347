import type { DeviceAuthorizationViewStatus, DevicePollRefusalStatus } from '@svc/contract';
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
 * One poll of the token endpoint (docs/reference/tokens-and-sessions.md "Device authorization grant": a device poll returns a status). Every expected
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
  | {
      readonly status: DevicePollRefusalStatus;
      readonly description: string;
      /** A device code Svc does not know (for this client): counted per address at the token endpoint. */
      readonly unknown?: true;
    };

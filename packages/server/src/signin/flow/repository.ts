/**
 * The storage the authorization endpoint owns: authorization requests between GET /authorize and the
 * redirect back to the client. Times are epoch milliseconds.
 */

/**
 * Where a request stands (see `AuthorizeFlow` for the transitions):
 *
 * - `pending`: waiting for the user to sign in (the identify step may have stored an email)
 * - `organization_selection`: signed in; the user belongs to several organizations and must choose
 * - `consent`: signed in, organization decided; a non-first-party client waits for consent
 * - `device_approval`: a device request (./device-steps.ts) is signed in and waits for Approve or Deny
 * - `completed`: the code was issued, or the device approved (terminal, single use)
 * - `denied`: the user denied consent or the device (terminal)
 */
export type AuthRequestStatus =
  'pending' | 'organization_selection' | 'mfa' | 'consent' | 'device_approval' | 'completed' | 'denied';

/** The statuses after which a request can never move again. */
export const TERMINAL_AUTH_REQUEST_STATUSES: ReadonlySet<AuthRequestStatus> = new Set([
  'completed',
  'denied',
]);

/**
 * A code or link a pending hosted request waits for. The challenge token itself never leaves the server:
 * the request (bound to its browser) holds the SHA-256 under which the challenge is stored in its own
 * table, so the page that asks for the code needs no secret in the form.
 */
export interface AuthRequestChallenge {
  readonly kind: AuthRequestChallengeKind;
  /** SHA-256 hex of the challenge (or link) token in its own table. */
  readonly hash: string;
  /** What the page shows about where the code went: the masked address or number. */
  readonly target: string;
  /** Code and link challenges: epoch ms when a new one may be sent (absent in requests stored before). */
  readonly resendAvailableAt?: number;
}

/** The hosted passwordless steps that wait for a code or a link. */
export type AuthRequestChallengeKind = CodeChallengeKind | 'magic_link' | MfaChallengeKind;

/** The steps that wait for a code sent by email or text message. */
export type CodeChallengeKind = 'email_otp' | 'email_otp_signup' | 'phone_otp' | 'phone_otp_signup';

/**
 * A request in status `mfa` waits for its second factor: `hash` is the MFA token's SHA-256 (the token
 * itself never leaves the server), `target` the offered methods, comma-separated.
 */
export type MfaChallengeKind = 'mfa' | 'mfa_enrollment';

/** A stored authorization request: the validated /authorize parameters and the sign-in progress. */
export interface AuthRequestRecord {
  readonly id: string;
  /** The OAuth client_id string. */
  readonly clientId: string;
  /** Exactly one of the client's registered redirect URIs ('' for a device request, which has none). */
  readonly redirectUri: string;
  readonly state: string | null;
  readonly requestedScopes: readonly string[];
  /** requestedScopes ∩ the client's allow-list at the time of the request. */
  readonly grantedScopes: readonly string[];
  readonly codeChallenge: string;
  readonly codeChallengeMethod: string;
  readonly resource: string | null;
  readonly nonce: string | null;
  /** The prompt values (none, login, consent, select_account). */
  readonly prompt: readonly string[];
  /** Seconds; 0 forces a fresh sign-in. */
  readonly maxAge: number | null;
  readonly loginHint: string | null;
  readonly view: string | null;
  readonly uiContext: string | null;
  /**
   * SHA-256 hex of the id of the browser that started the request: every later step must come from the
   * same browser, so that a request id alone (in a link, a log, a shoulder-surfed URL) buys nothing.
   */
  readonly browserBinding: string;
  readonly status: AuthRequestStatus;
  /** The address from the identify step, or null before it. */
  readonly email: string | null;
  /** Who signed in (every status after `pending`). */
  readonly userId: string | null;
  /** The organization decided for the sign-in (`consent` and later); null = user-scoped. */
  readonly organizationId: string | null;
  readonly amr: readonly string[] | null;
  /** Epoch milliseconds of the authentication. */
  readonly authTime: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly expiresAt: number;
  /** When the request reached a terminal status. */
  readonly completedAt: number | null;
  /** The code or link a `pending` request waits for, or null. */
  readonly challenge: AuthRequestChallenge | null;
  /**
   * Non-null marks a device request (RFC 8628, started at /device by typing the device's user code):
   * the user code, sealed under a key derived from the bound browser's id (./device-user-code.ts), so
   * that only that browser can show it again and storage never holds it readable. A device request has
   * no redirect URI, PKCE challenge or state (empty strings, null), never issues an authorization code,
   * and ends at `device_approval` with the device approved or denied.
   */
  readonly sealedDeviceUserCode: string | null;
  /**
   * The invitation the request is bound to (/authorize `invitation_token`), by id: never the token. Its
   * sign-in is for the invited address only, accepts the invitation, and completes in its organization
   * (./auth-request-steps.ts). No transition changes it.
   */
  readonly invitationId: string | null;
  /**
   * A request the browser it continues in did not start (an app's SAML entry point started it from its
   * backend): its sign-in starts no issuer session and leaves the browser's own alone, so that an
   * answer posted from another browser cannot sign that browser in (./auth-request-steps.ts).
   */
  readonly sessionless: boolean;
}

/** What a transition sets: the new status and any progress fields (unlisted fields keep their value). */
export interface AuthRequestChange {
  readonly status: AuthRequestStatus;
  readonly email?: string | null;
  readonly userId?: string | null;
  readonly organizationId?: string | null;
  readonly amr?: readonly string[] | null;
  readonly authTime?: number | null;
  readonly challenge?: AuthRequestChallenge | null;
}

export interface AuthRequestStore {
  insert(record: AuthRequestRecord): Promise<void>;
  /** The request with this id in any status, expired or not; undefined when unknown. */
  find(id: string): Promise<AuthRequestRecord | undefined>;
  /**
   * Applies `change` only while the request is still in status `from` and unexpired at `now` (one
   * conditional UPDATE, so that of two concurrent transitions exactly one wins: a request completes
   * once). Sets `updatedAt`, and `completedAt` when the new status is terminal. False when nothing
   * changed.
   */
  transition(id: string, from: AuthRequestStatus, change: AuthRequestChange, now: number): Promise<boolean>;
  /** Deletes requests that expired before `before`; returns how many. */
  deleteExpired(before: number): Promise<number>;
}

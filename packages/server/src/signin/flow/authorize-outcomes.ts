import { SvcTooManyAttemptsError, type RefusedAttempt } from '../../kernel/errors.js';
import type { ClientRecord } from '../../directory/repository.js';
import type { OAuthErrorCode } from '../../oauth/errors.js';
import type { AuthorizeView } from '../../oauth/authorize/authorize-params.js';

/**
 * What the authorization flow hands its HTTP adapter. Plain values: the hosted routes map them onto
 * redirects and pages, a headless adapter could map them onto its JSON views.
 */

/** The browser a step comes from. */
export interface BrowserContext {
  /**
   * A stable random id of this browser (the hosted antiforgery cookie's id). A request is bound to the
   * browser that started it; every later step must present the same id.
   */
  readonly browserId: string | undefined;
  /** The issuer session cookie's value, when the browser has one. */
  readonly sessionToken?: string | undefined;
  /** For the audit trail, and the token session an authorization code of this browser starts. */
  readonly ipAddress?: string | undefined;
  /** The `User-Agent` header, cut to 512 characters: the token session's device. */
  readonly userAgent?: string | undefined;
}

/** An issuer session the adapter must put into the session cookie. */
export interface StartedSession {
  readonly token: string;
  readonly expiresAt: number;
}

/**
 * A client that described itself (RFC 7591 registration, or a Client ID Metadata Document) rather than
 * one an operator created: its name is its own claim, so a page that asks the user to approve it says
 * so. `returnsTo` is the host approving sends the user to (null where nothing is sent back, as for a
 * device); `documentHost` the host serving its metadata document (its client_id's; null when it
 * registered), which the draft wants shown.
 */
export interface SelfRegisteredClient {
  readonly returnsTo: string | null;
  readonly documentHost: string | null;
}

/** What an approval page says of the client, or null for an operator's. */
export function selfRegisteredClient(
  client: ClientRecord,
  returnsTo: string | null,
): SelfRegisteredClient | null {
  if (client.registration === null) return null;
  const documentHost =
    client.registration.method === 'metadata_document' ? new URL(client.clientId).host : null;
  return { returnsTo, documentHost };
}

/** What every interactive step shows about its request. */
export interface StepRequest {
  readonly requestId: string;
  readonly clientName: string;
  /** The external providers every page of the request offers as buttons (the methods' providers). */
  readonly providers: readonly SignInProvider[];
}

/** An external identity provider a sign-in page offers as a button; its method registers it. */
export interface SignInProvider {
  /** What the provider's start action takes (a connection id). */
  readonly id: string;
  /** `Google`, `Microsoft`, `Apple`, `GitHub`, `Custom`… */
  readonly type: string;
  readonly displayName: string;
  /** The button's image, as a data URL; null: the name alone. */
  readonly logoDataUrl: string | null;
}

/**
 * The pages a request can need, by kind. The engine's own is the identify step; every method adds the
 * kinds of its pages by declaration merging (`declare module '…/flow/authorize-outcomes.js'`), so the
 * surfaces see one union and the engine names no method.
 */
export interface AuthorizeStepKinds {
  identify: { readonly kind: 'identify'; readonly request: StepRequest; readonly email: string | null };
}

/** The page a request needs next (GET /login renders it). */
export type AuthorizeStep = AuthorizeStepKinds[keyof AuthorizeStepKinds];

/** The outcome of GET /authorize. */
export type AuthorizeStartOutcome =
  /** The client or redirect URI cannot be trusted: the hosted error page, nothing sent anywhere. */
  | { readonly kind: 'error_page'; readonly error: OAuthErrorCode; readonly description: string }
  /** To the client: a code, or an error after the client and redirect URI were validated. */
  | { readonly kind: 'redirect'; readonly location: string }
  /**
   * The user must act: the browser goes to the request's current step, or, for a request that waits
   * for a sign-in, to the first page its `view` asked for (null: the identify step).
   */
  | { readonly kind: 'interact'; readonly requestId: string; readonly view: AuthorizeView | null };

/** The outcome of a GET of the current step: a page, or (the step resolved itself) a redirect. */
export type AuthorizeStepOutcome =
  | { readonly kind: 'step'; readonly step: AuthorizeStep }
  | { readonly kind: 'redirect'; readonly location: string };

/**
 * Why a form comes back with an inline error; the adapter words it (hosted: HOSTED_MESSAGES). The
 * engine's own are below; methods add theirs by declaration merging, like the step kinds.
 */
export interface StepErrors {
  email_required: true;
  email_invalid: true;
  /** An address that is not ASCII before the @ (docs/decisions/admin-email-identity-ascii-exact.md). */
  email_not_ascii: true;
  /** A check refused by the limits on guessing (the retry carries the wait). */
  too_many_attempts: true;
  /** A request bound to an invitation was signed in to another account than the invited address's. */
  invitation_other_account: true;
}

export type StepError = keyof StepErrors;

/** The outcome of a hosted form post. */
export type AuthorizeActionOutcome =
  /** To the client (code or error). `session`: a new issuer session for the cookie. */
  | { readonly kind: 'redirect'; readonly location: string; readonly session?: StartedSession }
  /** To the request's current step (GET /login), post/redirect/get. */
  | { readonly kind: 'next'; readonly requestId: string; readonly session?: StartedSession }
  /**
   * The same step again with an inline error (the submission did nothing). `refused`: a refused attempt
   * (`too_many_attempts`, or a send asked for too soon, `resend_too_soon`), whose words say when to try
   * again; the adapters answer 429 with Retry-After.
   */
  | {
      readonly kind: 'retry';
      readonly step: AuthorizeStep;
      readonly error: StepError;
      readonly refused?: RefusedAttempt;
    }
  /** A page to show once (recovery codes after enrollment), with the issuer session the post started. */
  | { readonly kind: 'show'; readonly step: AuthorizeStep; readonly session?: StartedSession };

/**
 * The error of a code check that the failure throttle refused, as the same step with `too_many_attempts`
 * and the wait; any other error is rethrown.
 */
export function refusedRetry(error: unknown, step: AuthorizeStep): AuthorizeActionOutcome {
  if (!(error instanceof SvcTooManyAttemptsError)) throw error;
  return { kind: 'retry', step, error: 'too_many_attempts', refused: error };
}

/** A completion result as the outcome of a post, with the issuer session the post started (if any). */
export function toActionOutcome(
  result: { readonly kind: 'redirect'; readonly location: string } | { readonly kind: 'next' },
  requestId: string,
  session?: StartedSession,
): AuthorizeActionOutcome {
  const started = session === undefined ? {} : { session };
  return result.kind === 'redirect'
    ? { kind: 'redirect', location: result.location, ...started }
    : { kind: 'next', requestId, ...started };
}

import type { SvcOrganizationOption } from '@svc/contract';
import type { OAuthErrorCode } from '../errors.js';
import type { AuthorizeView } from './authorize-params.js';
import type { AuthRequestChallengeKind } from './repository.js';

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
  /** For the audit trail. */
  readonly ipAddress?: string | undefined;
}

/** An issuer session the adapter must put into the session cookie. */
export interface StartedSession {
  readonly token: string;
  readonly expiresAt: number;
}

/** What every interactive step shows about its request. */
export interface StepRequest {
  readonly requestId: string;
  readonly clientName: string;
}

/** The page a request needs next (GET /login renders it). */
export type AuthorizeStep =
  | { readonly kind: 'identify'; readonly request: StepRequest; readonly email: string | null }
  | { readonly kind: 'password'; readonly request: StepRequest; readonly email: string }
  | {
      readonly kind: 'select_organization';
      readonly request: StepRequest;
      /** The engine's single-use token for this choice; goes into the form, never into a URL. */
      readonly pendingAuthToken: string;
      readonly organizations: readonly SvcOrganizationOption[];
    }
  /** The request waits for a code sent by email or text message (`challenge` says which form). */
  | {
      readonly kind: 'enter_code';
      readonly request: StepRequest;
      readonly challenge: Exclude<AuthRequestChallengeKind, 'magic_link'>;
      /** The masked address or number the code went to. */
      readonly target: string;
    }
  /** The request waits for the emailed sign-in link to be opened in this browser. */
  | { readonly kind: 'magic_link_sent'; readonly request: StepRequest; readonly target: string }
  | {
      readonly kind: 'consent';
      readonly request: StepRequest;
      readonly scopes: readonly string[];
      readonly userEmail: string | null;
      readonly organizationName: string | null;
    };

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
 * Why a form comes back with an inline error; the adapter words it (hosted: HOSTED_MESSAGES). A wrong
 * password and an unknown email are the same `invalid_credentials`.
 */
export type StepError =
  'email_required' | 'email_invalid' | 'password_required' | 'invalid_credentials' | 'organization_required';

/** The outcome of a hosted form post. */
export type AuthorizeActionOutcome =
  /** To the client (code or error). `session`: a new issuer session for the cookie. */
  | { readonly kind: 'redirect'; readonly location: string; readonly session?: StartedSession }
  /** To the request's current step (GET /login), post/redirect/get. */
  | { readonly kind: 'next'; readonly requestId: string; readonly session?: StartedSession }
  /** The same step again with an inline error (the submission did nothing). */
  | { readonly kind: 'retry'; readonly step: AuthorizeStep; readonly error: StepError };

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

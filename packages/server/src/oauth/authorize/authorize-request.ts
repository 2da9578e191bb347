import { isTlsOrLoopback } from '../../kernel/loopback.js';
import type { DocumentAdmission } from '../clients/metadata-documents/client-metadata-documents.js';
import type { ClientRecord } from '../../directory/repository.js';
import type { OAuthErrorCode } from '../errors.js';
import { isValidCodeChallenge, PKCE_METHOD } from '../pkce.js';
import { checkResource } from '../resource-indicators.js';
import { grantScopes, parseScope } from '../scopes.js';
import {
  type AuthorizeParameter,
  type AuthorizePrompt,
  type AuthorizeView,
  isAuthorizeView,
  parseMaxAge,
  parsePrompt,
  readAuthorizeParams,
} from './authorize-params.js';

/** Length caps of the free-text parameters (docs/reference/limits.md "Sizes and lengths" for state; the others match /start). */
export const AUTHORIZE_LIMITS = Object.freeze({
  clientId: 2048,
  state: 2048,
  nonce: 512,
  loginHint: 320,
  uiContext: 2048,
  invitationToken: 512,
});

/** A validated, normalized /authorize request. */
export interface AuthorizeRequest {
  readonly client: ClientRecord;
  /** Exactly one of the client's registered redirect URIs, as registered. */
  readonly redirectUri: string;
  /** As sent (1-2048 characters), or null when absent: the response then omits it. */
  readonly state: string | null;
  /** The valid scope tokens asked for, deduplicated, in request order. */
  readonly requestedScopes: readonly string[];
  /** requestedScopes ∩ the client's allow-list. */
  readonly grantedScopes: readonly string[];
  readonly codeChallenge: string;
  readonly codeChallengeMethod: typeof PKCE_METHOD;
  /** The RFC 8707 resource bound to the code and the refresh-token family, or null (the client's audience). */
  readonly resource: string | null;
  readonly nonce: string | null;
  readonly loginHint: string | null;
  readonly prompt: ReadonlySet<AuthorizePrompt>;
  /** Seconds; 0 forces a fresh sign-in. */
  readonly maxAge: number | null;
  readonly view: AuthorizeView | null;
  /** Opaque headless UI context, passed through unchanged. */
  readonly uiContext: string | null;
  /** From `invitation_token` or `invitationToken`. */
  readonly invitationToken: string | null;
}

/**
 * The outcome of parsing, in RFC 6749 §4.1.2.1's two phases:
 * - `error_page`: the client or redirect URI could not be trusted (client_id missing, unknown or
 *   inactive; redirect_uri missing or not registered; a parameter repeated). The user sees the hosted
 *   error page; nothing is sent to any redirect URI.
 * - `redirect_error`: client and redirect URI are valid; the error goes back to the client.
 * - `ok`: a request the sign-in flow can run.
 */
export type AuthorizeParseResult =
  | { readonly kind: 'ok'; readonly request: AuthorizeRequest }
  | { readonly kind: 'error_page'; readonly error: OAuthErrorCode; readonly description: string }
  | {
      readonly kind: 'redirect_error';
      readonly client: ClientRecord;
      readonly redirectUri: string;
      /** The request's state when it was valid, else null (an invalid state is never echoed). */
      readonly state: string | null;
      readonly error: OAuthErrorCode;
      readonly description: string;
    };

export interface AuthorizeRequestDeps {
  /** The client registered under a client_id (active or not), or undefined. */
  findClient(clientId: string): Promise<ClientRecord | undefined> | ClientRecord | undefined;
  /**
   * Called before `findClient` with a well-formed client_id: fetches a Client ID Metadata Document when
   * the client_id is one's URL (oauth/clients/metadata-documents). Absent: every client is stored.
   */
  admitClient?(clientId: string): Promise<DocumentAdmission>;
  /**
   * When true, a registered `http:` redirect URI is used only for a loopback host (RFC 8252 §7.3; OAuth
   * 2.0 Security BCP §4.1.3 wants TLS elsewhere). Registration accepts any http URI and leaves this
   * policy to the authorization endpoint; the composition root sets it outside development.
   */
  readonly requireTlsRedirects?: boolean;
}

// Unicode category Cc (C0, C1, DEL): PostgreSQL text cannot hold NUL, and no parameter needs a control.
const CONTROL = /\p{Cc}/u;

function fitsText(value: string, max: number): boolean {
  return value.length <= max && !CONTROL.test(value);
}

/**
 * Validates a GET /authorize query against docs/reference/tokens-and-sessions.md "The authorization request". Never throws for bad
 * input: every failure is a value. PKCE (S256) is required of every client, public or confidential.
 */
export async function parseAuthorizeRequest(
  query: unknown,
  deps: AuthorizeRequestDeps,
): Promise<AuthorizeParseResult> {
  const params = readAuthorizeParams(query);
  const page = (error: OAuthErrorCode, description: string): AuthorizeParseResult => ({
    kind: 'error_page',
    error,
    description,
  });

  // Phase 1: nothing may be redirected until client_id and redirect_uri are trusted.
  if (params.repeated !== null) {
    return page('invalid_request', `The ${params.repeated} parameter must not be repeated.`);
  }
  const clientId = params.values.get('client_id');
  if (clientId === undefined) return page('invalid_request', 'The client_id parameter is required.');
  // A malformed client_id is never looked up (a NUL would fail the PostgreSQL query with a 500).
  const wellFormed = fitsText(clientId, AUTHORIZE_LIMITS.clientId);
  const admission = wellFormed ? await deps.admitClient?.(clientId) : undefined;
  if (admission?.kind === 'refused') return page('invalid_client', admission.description);
  const client = wellFormed ? await deps.findClient(clientId) : undefined;
  if (client?.active !== true) return page('invalid_client', 'The client is unknown or disabled.');
  const redirectUri = params.values.get('redirect_uri');
  if (redirectUri === undefined) return page('invalid_request', 'The redirect_uri parameter is required.');
  // Exact, case-sensitive string comparison with no normalization (RFC 6749 §3.1.2.3, OAuth 2.1).
  if (!client.redirectUris.includes(redirectUri)) {
    return page('invalid_request', 'The redirect_uri is not registered for this client.');
  }
  if (deps.requireTlsRedirects === true && !isTlsOrLoopback(redirectUri)) {
    return page(
      'invalid_request',
      'The redirect_uri uses plain http, which is allowed only for loopback hosts.',
    );
  }

  // Phase 2: errors go back to the client. A state that breaks its own rule is not echoed.
  const sentState = params.values.get('state');
  const stateValid =
    sentState === undefined || (sentState.length > 0 && fitsText(sentState, AUTHORIZE_LIMITS.state));
  const state = stateValid ? (sentState ?? null) : null;
  const fail = (error: OAuthErrorCode, description: string): AuthorizeParseResult => ({
    kind: 'redirect_error',
    client,
    redirectUri,
    state,
    error,
    description,
  });
  if (!stateValid) {
    return fail('invalid_request', 'The state parameter must be 1 to 2048 characters without controls.');
  }

  if (params.values.has('request')) {
    return fail('request_not_supported', 'Request objects are not supported.');
  }
  if (params.values.has('request_uri')) {
    return fail('request_uri_not_supported', 'The request_uri parameter is not supported.');
  }

  const responseType = params.values.get('response_type');
  if (responseType === undefined) return fail('invalid_request', 'The response_type parameter is required.');
  if (responseType !== 'code') {
    return fail('unsupported_response_type', 'Only the code response_type is supported.');
  }
  const responseMode = params.values.get('response_mode');
  if (responseMode !== undefined && responseMode !== 'query') {
    return fail('invalid_request', 'Only the query response_mode is supported.');
  }

  const codeChallenge = params.values.get('code_challenge');
  if (codeChallenge === undefined) {
    return fail('invalid_request', 'PKCE is required: send code_challenge with code_challenge_method=S256.');
  }
  if (params.values.get('code_challenge_method') !== PKCE_METHOD) {
    return fail('invalid_request', 'The code_challenge_method must be S256.');
  }
  if (!isValidCodeChallenge(codeChallenge)) {
    return fail('invalid_request', 'The code_challenge must be 43 base64url characters (S256).');
  }

  const resourceResult = checkResource(params.resources, client);
  if (resourceResult.ok === false) return fail('invalid_target', resourceResult.description);

  const prompt = parsePrompt(params.values.get('prompt'));
  if (!prompt.ok) return fail('invalid_request', prompt.description);

  const maxAgeRaw = params.values.get('max_age');
  const maxAge = maxAgeRaw === undefined ? null : parseMaxAge(maxAgeRaw);
  if (maxAge === undefined) {
    return fail('invalid_request', 'The max_age parameter must be a non-negative integer of seconds.');
  }

  const text = (name: AuthorizeParameter, max: number): string | null | false => {
    const value = params.values.get(name);
    if (value === undefined) return null;
    return fitsText(value, max) ? value : false;
  };
  const nonce = text('nonce', AUTHORIZE_LIMITS.nonce);
  if (nonce === false) {
    return fail('invalid_request', 'The nonce must be at most 512 characters without controls.');
  }
  const loginHint = text('login_hint', AUTHORIZE_LIMITS.loginHint);
  if (loginHint === false) {
    return fail('invalid_request', 'The login_hint must be at most 320 characters without controls.');
  }
  const uiContext = text('ui_context', AUTHORIZE_LIMITS.uiContext);
  if (uiContext === false) {
    return fail('invalid_request', 'The ui_context must be at most 2048 characters without controls.');
  }
  const invitationToken = text('invitation_token', AUTHORIZE_LIMITS.invitationToken);
  const invitationTokenAlias = text('invitationToken', AUTHORIZE_LIMITS.invitationToken);
  if (invitationToken === false || invitationTokenAlias === false) {
    return fail('invalid_request', 'The invitation token must be at most 512 characters without controls.');
  }
  if (invitationToken !== null && invitationTokenAlias !== null && invitationToken !== invitationTokenAlias) {
    return fail('invalid_request', 'Send the invitation token once (invitation_token or invitationToken).');
  }

  const view = params.values.get('view');
  if (view !== undefined && !isAuthorizeView(view)) {
    return fail('invalid_request', 'The view parameter names no view of the service.');
  }

  const requestedScopes = parseScope(params.values.get('scope'));
  return {
    kind: 'ok',
    request: {
      client,
      redirectUri,
      state,
      requestedScopes,
      grantedScopes: grantScopes(requestedScopes, client.allowedScopes),
      codeChallenge,
      codeChallengeMethod: PKCE_METHOD,
      resource: resourceResult.resource,
      nonce,
      loginHint,
      prompt: prompt.prompt,
      maxAge,
      view: view ?? null,
      uiContext,
      invitationToken: invitationToken ?? invitationTokenAlias,
    },
  };
}

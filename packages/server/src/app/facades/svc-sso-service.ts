import {
  svcSsoAuthorizationRequestSchema,
  svcSsoCodeExchangeRequestSchema,
  type SvcSsoAuthorizationRequest,
  type SvcSsoAuthorizationResult,
  type SvcSsoCodeExchangeRequest,
  type SvcTokenResponse,
} from '@svc/contract';
import { validate } from '../../kernel/validation.js';
import { directCallOf } from '../../signin/direct-sign-in.js';
import type { DirectSsoSignIn } from '../../signin/direct-sso-sign-in.js';
import type { SvcAuthCallContext } from './svc-auth-call-context.js';

export interface SvcSsoServiceDeps {
  readonly signIn: DirectSsoSignIn;
}

/**
 * The SSO operations StartAuthorizationAsync and ExchangeCodeAsync (docs/reference/federation.md "SAML entry points of first-party apps") and what the SAML entry routes
 * of first-party apps call (docs/reference/federation.md "SAML entry points of first-party apps"). Requests are validated
 * with the contract schemas (400 SvcValidationError naming each wrong field); every operation is for
 * first-party clients only (400 `invalid_client` before anything else; a confidential client sends its
 * `clientSecret`, else 401).
 *
 * Errors: SvcPublicAuthError `invalid_redirect_uri` (400: not one of the client's redirect URIs,
 * exactly), `sso_not_configured` (400: the email's domain has no enabled SSO connection of an active
 * organization), `invalid_grant` (400: a code that cannot be exchanged), `account_inactive` (403);
 * SvcMfaRequiredError (403 `mfa_required`, with the MFA token); SvcTooManyAttemptsError (429 past the
 * limit on refused codes per IP address).
 */
export class SvcSsoService {
  readonly #deps: SvcSsoServiceDeps;

  constructor(deps: SvcSsoServiceDeps) {
    this.#deps = deps;
  }

  /**
   * StartAuthorizationAsync, the direct request-token flow: the IdP's URL of the email's organization.
   * Its answer sends the browser to `redirectUri` with a temporary `code` and the `state`; redeem the
   * code with {@link SvcSsoService.exchangeCodeAsync} (or `POST /token/exchange`), never at `/token`.
   */
  async startAuthorizationAsync(
    request: SvcSsoAuthorizationRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcSsoAuthorizationResult> {
    const input = validate(svcSsoAuthorizationRequestSchema, request, 'SSO authorization request');
    return this.#deps.signIn.startRequestToken(
      input,
      directCallOf('startAuthorizationAsync', context, input.clientSecret),
    );
  }

  /**
   * `POST /sso/authorization-url`: the IdP's URL of the email's organization; its answer ends in an
   * OAuth authorization code at `redirectUri` (with the `state`), redeemed only at `POST /token` with
   * that redirect URI and the PKCE verifier.
   */
  async createAuthorizationUrlAsync(
    request: SvcSsoAuthorizationRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcSsoAuthorizationResult> {
    const input = validate(svcSsoAuthorizationRequestSchema, request, 'SSO authorization request');
    return this.#deps.signIn.authorizationUrl(
      input,
      directCallOf('createAuthorizationUrlAsync', context, input.clientSecret),
    );
  }

  /**
   * ExchangeCodeAsync: the temporary code of the request-token flow, with its client, the exact redirect
   * URI and the PKCE verifier, once, for the tokens of a session in the connection's organization.
   */
  async exchangeCodeAsync(
    request: SvcSsoCodeExchangeRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcTokenResponse> {
    const input = validate(svcSsoCodeExchangeRequestSchema, request, 'code exchange request');
    return this.#deps.signIn.exchangeCode(
      input,
      directCallOf('exchangeCodeAsync', context, input.clientSecret),
    );
  }
}

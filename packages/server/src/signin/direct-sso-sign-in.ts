import type {
  SvcSsoAuthorizationInput,
  SvcSsoAuthorizationResult,
  SvcSsoCodeExchangeInput,
  SvcTokenResponse,
} from '@svc/contract';
import {
  REQUEST_TOKEN_KIND,
  SSO_AUTHORIZATION_KIND,
  type SamlAppAuthorization,
  type SamlAppEntryKind,
} from '../federation/saml/app-entry.js';
import type { SamlRequestCodes } from '../federation/saml/request-codes.js';
import { SvcInvalidOperationError, SvcMfaRequiredError, SvcPublicAuthError } from '../kernel/errors.js';
import { lookUpHandedOut, type HandedOutTokenLimit } from '../ratelimit/handed-out-tokens.js';
import type { DirectProviderSignIn } from './direct-provider-sign-in.js';
import { tokenCheckAddress, type DirectCallContext, type DirectSignIn } from './direct-sign-in.js';

/** The method `oauth.direct_login.succeeded` records for a SAML sign-in (as the hosted one does). */
const SAML_METHOD = 'saml';

export interface DirectSsoSignInDeps {
  readonly direct: Pick<DirectSignIn, 'requireFirstPartyClient'>;
  readonly authorization: Pick<SamlAppAuthorization, 'start'>;
  readonly codes: Pick<SamlRequestCodes, 'redeem'>;
  /** The sign-in of a user an identity provider vouched for (user checks, audit, engine). */
  readonly federated: Pick<DirectProviderSignIn, 'signInFederatedUser'>;
  /** Refused codes, counted per address with every handed-out token. */
  readonly tokenChecks: HandedOutTokenLimit;
}

/** The one refusal of a code that cannot be exchanged, whatever the reason. */
function invalidCodeError(): SvcPublicAuthError {
  return new SvcPublicAuthError(
    'invalid_grant',
    'The code is not valid: it is unknown, used or expired, or was issued for another client, redirect ' +
      'URI or verifier.',
    400,
  );
}

/**
 * The SAML entry points of first-party apps (docs/reference/federation.md "SAML entry points of first-party
 * apps"). Every operation passes the direct helpers' client gate first, before the email is looked up or a
 * code read: a client that is not first-party is a 400 `invalid_client`, a confidential client without its
 * secret a 401, each audited `oauth.direct_login.rejected`.
 *
 * - `authorizationUrl` (`POST /sso/authorization-url`): the IdP's URL; the answer ends in an OAuth
 *   authorization code at the app's redirect URI, redeemed only at `POST /token`.
 * - `startRequestToken` (SSO StartAuthorizationAsync): the IdP's URL; the answer ends in a temporary code
 *   at the app's redirect URI, redeemed only by `exchangeCode`.
 * - `exchangeCode` (ExchangeCodeAsync, `POST /token/exchange`): the temporary code with its client,
 *   exact redirect URI and PKCE verifier, once, for the tokens of a direct session in the connection's
 *   organization; its MFA policy answers `mfa_required` (403) with the MFA token instead. Refused
 *   exchanges are counted per address with every handed-out token (429 past `failureLimits.tokenIp`).
 */
export class DirectSsoSignIn {
  readonly #deps: DirectSsoSignInDeps;

  constructor(deps: DirectSsoSignInDeps) {
    this.#deps = deps;
  }

  authorizationUrl(
    input: SvcSsoAuthorizationInput,
    context: DirectCallContext,
  ): Promise<SvcSsoAuthorizationResult> {
    return this.#start(SSO_AUTHORIZATION_KIND, input, context);
  }

  startRequestToken(
    input: SvcSsoAuthorizationInput,
    context: DirectCallContext,
  ): Promise<SvcSsoAuthorizationResult> {
    return this.#start(REQUEST_TOKEN_KIND, input, context);
  }

  async exchangeCode(input: SvcSsoCodeExchangeInput, context: DirectCallContext): Promise<SvcTokenResponse> {
    const client = await this.#deps.direct.requireFirstPartyClient(input.clientId, context);
    const grant = await lookUpHandedOut(this.#deps.tokenChecks, tokenCheckAddress(client, context), () =>
      this.#deps.codes.redeem({
        code: input.code,
        clientId: client.clientId,
        redirectUri: input.redirectUri,
        codeVerifier: input.codeVerifier,
      }),
    );
    if (grant === undefined) throw invalidCodeError();
    const result = await this.#deps.federated.signInFederatedUser(
      {
        userId: grant.userId,
        client,
        method: SAML_METHOD,
        organizationId: grant.organizationId,
        authTime: grant.authTime,
      },
      context,
    );
    if (result.tokens !== null) return result.tokens;
    if (result.requiresMfa && result.mfaToken !== null) {
      throw new SvcMfaRequiredError({
        mfaToken: result.mfaToken,
        requiresMfaEnrollment: result.requiresMfaEnrollment,
        mfaMethods: result.mfaMethods ?? [],
      });
    }
    // The organization is always named, so the engine never asks to choose one.
    throw new SvcInvalidOperationError('The sign-in did not complete.');
  }

  async #start(
    kind: SamlAppEntryKind,
    input: SvcSsoAuthorizationInput,
    context: DirectCallContext,
  ): Promise<SvcSsoAuthorizationResult> {
    const client = await this.#deps.direct.requireFirstPartyClient(input.clientId, context);
    return this.#deps.authorization.start(kind, client, {
      email: input.email,
      redirectUri: input.redirectUri,
      state: input.state,
      codeChallenge: input.codeChallenge,
    });
  }
}

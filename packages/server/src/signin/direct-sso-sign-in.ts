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
import { MINUTE_MS } from '../kernel/clock.js';
import {
  retryAfterPhrase,
  SvcInvalidOperationError,
  SvcMfaRequiredError,
  SvcPublicAuthError,
  SvcTooManyAttemptsError,
} from '../kernel/errors.js';
import type { FailureRule } from '../ratelimit/failure-rules.js';
import type { FailureThrottle } from '../ratelimit/failure-throttle.js';
import type { DirectProviderSignIn } from './direct-provider-sign-in.js';
import type { DirectCallContext, DirectSignIn } from './direct-sign-in.js';

/** The method `oauth.direct_login.succeeded` records for a SAML sign-in (as the hosted one does). */
const SAML_METHOD = 'saml';

/**
 * Refused exchanges of request-token codes from one IP address: a code is 256 random bits, so this
 * stops a client from hammering the database with guesses (as the setup portal's links do).
 */
export const SSO_CODE_GUESS_RULE: FailureRule = {
  name: 'sso.request-code-ip',
  threshold: 20,
  windowMs: 15 * MINUTE_MS,
};

/** Where the throttle counts an in-process exchange that names no address. */
const IN_PROCESS = 'in-process';

export interface DirectSsoSignInDeps {
  readonly direct: Pick<DirectSignIn, 'requireFirstPartyClient'>;
  readonly authorization: Pick<SamlAppAuthorization, 'start'>;
  readonly codes: Pick<SamlRequestCodes, 'redeem'>;
  /** The sign-in of a user an identity provider vouched for (user checks, audit, engine). */
  readonly federated: Pick<DirectProviderSignIn, 'signInFederatedUser'>;
  readonly throttle: Pick<FailureThrottle, 'begin'>;
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
 * The SAML entry points of first-party apps (docs/decisions/federation-saml-app-entry-points.md). Every
 * operation passes the direct helpers' client gate first, before the email is looked up or a code
 * read: a client that is not first-party is a 400 `invalid_client`, a confidential client without its
 * secret a 401, each audited `oauth.direct_login.rejected`.
 *
 * - `authorizationUrl` (`POST /sso/authorization-url`): the IdP's URL; the answer ends in an OAuth
 *   authorization code at the app's redirect URI, redeemed only at `POST /token`.
 * - `startRequestToken` (SSO StartAuthorizationAsync): the IdP's URL; the answer ends in a temporary code
 *   at the app's redirect URI, redeemed only by `exchangeCode`.
 * - `exchangeCode` (ExchangeCodeAsync, `POST /token/exchange`): the temporary code with its client,
 *   exact redirect URI and PKCE verifier, once, for the tokens of a direct session in the connection's
 *   organization; its MFA policy answers `mfa_required` (403) with the MFA token instead. Refused
 *   exchanges are counted per IP address (429 past {@link SSO_CODE_GUESS_RULE}).
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
    const check = await this.#deps.throttle.begin([
      { rule: SSO_CODE_GUESS_RULE, value: context.ipAddress ?? IN_PROCESS },
    ]);
    if (!check.allowed) {
      throw new SvcTooManyAttemptsError(
        `Too many codes were refused. Try again ${retryAfterPhrase(check.retryAfterMs)}.`,
        check.retryAfterMs,
      );
    }
    const grant = await this.#deps.codes.redeem({
      code: input.code,
      clientId: client.clientId,
      redirectUri: input.redirectUri,
      codeVerifier: input.codeVerifier,
    });
    if (grant === undefined) throw invalidCodeError();
    await check.attempt.succeeded();
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

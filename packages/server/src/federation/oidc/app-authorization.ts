import type { UserRecord } from '../../directory/repository.js';
import { SvcPublicAuthError } from '../../kernel/errors.js';
import type { LinkingContext, LinkingRefusal } from './account-linking.js';
import type { OidcConnection } from './enabled-connections.js';
import type { OidcIdentity } from './identity-claims.js';
import type { OidcSignIn } from './oidc-sign-in.js';
import type { OidcRelyingParty } from './relying-party.js';
import { OidcRelyingPartyError } from './rp-errors.js';

export interface OidcAppAuthorizationDeps {
  /** The connection lookup, the linking and the audit of every sign-in through a provider. */
  readonly signIn: Pick<OidcSignIn, 'enabled' | 'link' | 'failed'>;
  readonly relyingParty: Pick<OidcRelyingParty, 'start' | 'complete'>;
}

/**
 * The start of docs/reference/federation.md "First-party apps", as the app's checks: the app keeps the state,
 * the nonce and the verifier.
 */
export interface OidcAppStartInput {
  readonly connectionId: string;
  /** The app's own callback: one of the connection's allowed callback URIs, exactly. */
  readonly callbackUri: string;
  /** The email the user typed: the provider's `login_hint`. */
  readonly loginHint: string | null;
  readonly state: string;
  readonly nonce: string;
  /** The S256 challenge of the app's verifier. */
  readonly codeChallenge: string;
}

/**
 * The exchange of docs/reference/federation.md "First-party apps": the code the app's callback received, with
 * the start's checks.
 */
export interface OidcAppCompleteInput {
  readonly connectionId: string;
  readonly callbackUri: string;
  readonly code: string;
  readonly codeVerifier: string;
  readonly nonce: string;
  /** Apple's first-login `user` form field. */
  readonly userPayloadJson: string | null;
  /** The callback's RFC 9207 `iss`, when the app has it. */
  readonly iss: string | null;
}

/** Who the provider named and the account that identity signs in as. */
export interface OidcAppCompletion {
  readonly connection: OidcConnection;
  readonly user: UserRecord;
  readonly userCreated: boolean;
}

/** An unknown or disabled connection: a stale button of the app's sign-in page. */
export function connectionNotAvailableError(): SvcPublicAuthError {
  return new SvcPublicAuthError(
    'invalid_connection',
    'This sign-in provider is not available: it is unknown or disabled.',
    400,
  );
}

/** The account a provider identity would sign in as is deactivated. */
export function accountInactiveError(): SvcPublicAuthError {
  return new SvcPublicAuthError('account_inactive', 'This account cannot sign in: it is deactivated.', 403);
}

/**
 * A new identity whose address belongs to an account, unverified by the provider: it must not take the
 * account over (docs/reference/federation.md "Account linking"). The words of the hosted page's error.
 */
export function providerEmailUnverifiedError(): SvcPublicAuthError {
  return new SvcPublicAuthError(
    'provider_email_unverified',
    'An account with this email address already exists, and the provider did not confirm the address ' +
      'is yours. Sign in another way.',
    409,
  );
}

/**
 * A new identity of an organization's connection whose address is outside the organization's verified
 * domains (docs/decisions/accounts-linking-unverified-accounts.md). The words of the hosted page's error.
 */
export function providerDomainNotClaimedError(): SvcPublicAuthError {
  return new SvcPublicAuthError(
    'provider_domain_not_claimed',
    "This organization's sign-in provider signs in only email addresses of the domains the organization " +
      "has verified. Ask your organization's administrator to verify the domain of your email address.",
    403,
  );
}

/** The error of each refusal of the identity. */
const REFUSALS: Readonly<Record<LinkingRefusal, () => SvcPublicAuthError>> = {
  email_not_verified: providerEmailUnverifiedError,
  domain_not_claimed: providerDomainNotClaimedError,
  account_inactive: accountInactiveError,
};

/**
 * The sign-in through a provider of a first-party app that holds its own checks (docs/reference/federation.md
 * "First-party apps"): `start` builds the provider's authorization URL with the app's
 * state, nonce and S256 challenge and keeps nothing; `complete` redeems the code the app's callback
 * received (its state already compared by the app) with the app's verifier, checks the ID token's nonce
 * and links the identity to its account, exactly as the hosted sign-in does (OidcSignIn's `link`, audited
 * `oidc.authorization.completed`; a refused answer audited `oidc.authorization.failed`). Whether the
 * client may do this is the caller's (the first-party gate, before anything here).
 *
 * Errors: `invalid_connection` (400) for an unknown or disabled connection; the relying party's
 * OidcRelyingPartyError (`invalid_redirect_uri`, `provider_error` for a code redeemed twice,
 * `invalid_id_token` for a wrong nonce, `provider_unavailable` 502…); `provider_email_unverified` (409),
 * `provider_domain_not_claimed` (403) and `account_inactive` (403) when the identity may not sign in.
 */
export class OidcAppAuthorization {
  readonly #deps: OidcAppAuthorizationDeps;

  constructor(deps: OidcAppAuthorizationDeps) {
    this.#deps = deps;
  }

  async start(
    input: OidcAppStartInput,
  ): Promise<{ readonly authorizationUrl: string; readonly connection: OidcConnection }> {
    const connection = await this.#enabled(input.connectionId);
    const { authorizationUrl } = await this.#deps.relyingParty.start(connection, {
      redirectUri: input.callbackUri,
      loginHint: input.loginHint,
      appChecks: { state: input.state, nonce: input.nonce, codeChallenge: input.codeChallenge },
    });
    return { authorizationUrl, connection };
  }

  async complete(input: OidcAppCompleteInput, context: LinkingContext): Promise<OidcAppCompletion> {
    const connection = await this.#enabled(input.connectionId);
    let identity: OidcIdentity;
    try {
      identity = await this.#deps.relyingParty.complete(connection, {
        code: input.code,
        iss: input.iss,
        redirectUri: input.callbackUri,
        expectedNonce: input.nonce,
        codeVerifier: input.codeVerifier,
        userPayloadJson: input.userPayloadJson,
      });
    } catch (error) {
      if (error instanceof OidcRelyingPartyError) await this.#deps.signIn.failed(connection, error, context);
      throw error;
    }
    const { account } = await this.#deps.signIn.link(connection, identity, context);
    if (account.kind === 'refused') throw REFUSALS[account.reason]();
    return { connection, user: account.user, userCreated: account.kind === 'created' };
  }

  /** OidcSignIn's lookup, its `invalid_callback` named for what an app asked: a provider it listed. */
  async #enabled(connectionId: string): Promise<OidcConnection> {
    try {
      return await this.#deps.signIn.enabled(connectionId);
    } catch (error) {
      if (error instanceof OidcRelyingPartyError) throw connectionNotAvailableError();
      throw error;
    }
  }
}

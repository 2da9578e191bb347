import { buildAuthorizationUrl, calculatePKCECodeChallenge, skipStateCheck } from 'openid-client';
import type { Clock } from '../../kernel/clock.js';
import { safeEqual } from '../../kernel/crypto.js';
import { SvcValidationError } from '../../kernel/errors.js';
import type { Ids } from '../../kernel/ids.js';
import { AppleClientSecrets } from './apple-client-secret.js';
import { callbackUrl, clientConfiguration } from './client-configuration.js';
import type { OidcConnection } from './enabled-connections.js';
import { gitHubProfile, gitHubTokenFetch } from './github-profile.js';
import { identityFromClaims, namesFromApplePayload, type OidcIdentity } from './identity-claims.js';
import { oidcGrant, type OidcClaims } from './oidc-grant.js';
import { ProviderMetadataCache } from './provider-metadata.js';
import { fromLibraryError, OidcRelyingPartyError, providerError } from './rp-errors.js';
import { refreshGrant, revokeGrant, type TokenGrantContext } from './token-grants.js';
import type { OidcTokenSet } from './token-set.js';
import { UpstreamHttp, type UpstreamHttpOptions } from './upstream-http.js';

export interface OidcRelyingPartyDeps extends UpstreamHttpOptions {
  readonly clock: Clock;
  /** State, nonce and PKCE verifier: 256 random bits each, base64url. */
  readonly ids: Pick<Ids, 'secret'>;
  /** How long a discovery document is kept (default one hour). */
  readonly discoveryTtlMs?: number | undefined;
}

/** What the caller of {@link OidcRelyingParty.start} passes. */
export interface OidcStartInput {
  /** Where the provider sends the user back: exactly one of the connection's allowed callback URIs. */
  readonly redirectUri: string;
  /** The email the user typed, sent as `login_hint` to OpenID providers (not to Apple or GitHub). */
  readonly loginHint?: string | null | undefined;
  /**
   * The checks of a first-party app that keeps its own (docs/reference/federation.md "First-party apps":
   * state, nonce, code challenge): used instead of fresh ones; the app then holds the verifier.
   */
  readonly appChecks?:
    { readonly state: string; readonly nonce: string; readonly codeChallenge: string } | undefined;
  /** The scopes to ask for instead of the connection's own (a calendar consent asks for its own). */
  readonly scopes?: readonly string[] | undefined;
  /**
   * Further authorization parameters (Google's `access_type=offline` and `prompt=consent`). They never
   * replace one the sign-in sets itself (state, nonce, PKCE, redirect URI, scope, login hint).
   */
  readonly extraParameters?: Readonly<Record<string, string>> | undefined;
}

/** Where to send the user, and the checks to keep (hashed or sealed) until the callback. */
export interface OidcAuthorizationStart {
  readonly authorizationUrl: string;
  readonly state: string;
  readonly nonce: string;
  /** The PKCE S256 verifier; null when the app passed its own code challenge. */
  readonly codeVerifier: string | null;
}

/** The checks the start returned, and where the provider sent the user back to. */
interface OidcCompleteChecks {
  readonly redirectUri: string;
  readonly expectedNonce: string;
  readonly codeVerifier: string;
  /** Apple's first-login `user` form field; only its name is used. Ignored for other providers. */
  readonly userPayloadJson?: string | null | undefined;
}

/**
 * The provider's answer: the callback as received (its URL, or the parameters of its query or form post)
 * with the state this sign-in sent; or, for the exchange of a first-party app that checked its own state,
 * just the code (and `iss` when the app has it).
 */
export type OidcCompleteInput = OidcCompleteChecks &
  (
    | { readonly callback: string | URL | URLSearchParams; readonly expectedState: string }
    | { readonly code: string; readonly iss?: string | null | undefined }
  );

/** A completed authorization at an OpenID provider: who consented, and the tokens it granted. */
export interface OidcRedemption {
  readonly identity: OidcIdentity;
  readonly tokens: OidcTokenSet;
  /** The validated ID token's `iss` (a Microsoft multi-tenant connection: the user's own tenant's). */
  readonly issuer: string;
}

// docs/reference/federation.md "First-party apps": a state of 1 to 2048 characters; a nonce is the app's too,
// but only ever a random value.
const APP_STATE = /^[\x21-\x7e]{1,2048}$/;
const APP_NONCE = /^[\x21-\x7e]{1,512}$/;
const CODE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Svc as a relying party of the connection's provider: `start` makes the authorization URL with a fresh
 * state, nonce and PKCE S256 challenge (every provider, GitHub too), `complete` checks the callback,
 * redeems the code once and answers who signed in, read through the connection's claim mapping. It
 * stores nothing: the caller keeps the checks between the two and decides what the identity means.
 * `redeem`, `refresh` and `revoke` serve a caller that keeps the provider's tokens (calendar
 * connections). Failures are {@link OidcRelyingPartyError}s.
 */
export class OidcRelyingParty {
  readonly #deps: OidcRelyingPartyDeps;
  readonly #http: UpstreamHttp;
  readonly #metadata: ProviderMetadataCache;
  readonly #appleSecrets: AppleClientSecrets;

  constructor(deps: OidcRelyingPartyDeps) {
    this.#deps = deps;
    this.#http = new UpstreamHttp(deps);
    this.#metadata = new ProviderMetadataCache({
      clock: deps.clock,
      http: this.#http,
      ttlMs: deps.discoveryTtlMs,
    });
    this.#appleSecrets = new AppleClientSecrets(deps.clock);
  }

  /** The authorization URL to send the user to, and the checks to keep until the callback. */
  async start(connection: OidcConnection, input: OidcStartInput): Promise<OidcAuthorizationStart> {
    assertRedirectUri(connection, input.redirectUri);
    const profile = connection.profile;
    const metadata = await this.#metadata.resolve(connection);
    let state: string;
    let nonce: string;
    let codeVerifier: string | null;
    let codeChallenge: string;
    if (input.appChecks !== undefined) {
      ({ state, nonce, codeChallenge } = checkedAppChecks(input.appChecks));
      codeVerifier = null;
    } else {
      state = this.#deps.ids.secret();
      nonce = this.#deps.ids.secret();
      codeVerifier = this.#deps.ids.secret();
      codeChallenge = await calculatePKCECodeChallenge(codeVerifier);
    }
    const parameters: Record<string, string> = {
      redirect_uri: input.redirectUri,
      scope: (input.scopes ?? profile.scopes).join(' '),
      state,
      nonce,
      code_challenge: codeChallenge,
      code_challenge_method: 'S256',
    };
    const apple = profile.authenticationMethod === 'apple';
    if (apple) {
      // Apple requires form_post when it is asked for the user's name or email.
      if (profile.scopes.includes('name') || profile.scopes.includes('email'))
        parameters.response_mode = 'form_post';
    } else if (profile.protocol === 'oidc' && typeof input.loginHint === 'string' && input.loginHint !== '') {
      parameters.login_hint = input.loginHint;
    }
    for (const [name, value] of Object.entries(input.extraParameters ?? {})) parameters[name] ??= value;
    const config = clientConfiguration(connection, metadata, {
      http: this.#http,
      clock: this.#deps.clock,
      clientSecret: null,
    });
    let authorizationUrl: URL;
    try {
      authorizationUrl = buildAuthorizationUrl(config, parameters);
    } catch (error) {
      throw fromLibraryError('the authorization request', error);
    }
    return { authorizationUrl: authorizationUrl.href, state, nonce, codeVerifier };
  }

  /** Checks the callback, redeems the code and answers who signed in. */
  async complete(connection: OidcConnection, input: OidcCompleteInput): Promise<OidcIdentity> {
    return (await this.#complete(connection, input)).identity;
  }

  /**
   * Like {@link complete}, and answers the tokens too, for a caller that keeps them (calendar
   * connections). OpenID providers only: GitHub's OAuth profile is refused (`provider_configuration`).
   */
  async redeem(connection: OidcConnection, input: OidcCompleteInput): Promise<OidcRedemption> {
    const { identity, claims } = await this.#complete(connection, input);
    if (claims === null) {
      throw new OidcRelyingPartyError(
        'provider_configuration',
        'Only an OpenID provider grants kept tokens.',
      );
    }
    return { identity, tokens: claims.tokens, issuer: String(claims.idToken.iss) };
  }

  /**
   * A new access token for a refresh token (RFC 6749 §6); `issuer` is the `iss` of the first ID token
   * (see {@link OidcRedemption}). A refresh token the provider refused is `provider_error` with the
   * provider's `invalid_grant`.
   */
  async refresh(
    connection: OidcConnection,
    input: { readonly refreshToken: string; readonly issuer: string },
  ): Promise<OidcTokenSet> {
    return refreshGrant(await this.#grantContext(connection), input.refreshToken, input.issuer);
  }

  /**
   * Revokes a refresh token at the provider (RFC 7009), and with it the user's grant there; false when
   * the provider has no revocation endpoint (Microsoft).
   */
  async revoke(connection: OidcConnection, refreshToken: string): Promise<boolean> {
    return revokeGrant(await this.#grantContext(connection), refreshToken);
  }

  async #grantContext(connection: OidcConnection): Promise<TokenGrantContext> {
    if (connection.profile.protocol !== 'oidc' || connection.profile.authenticationMethod === 'apple') {
      throw new OidcRelyingPartyError(
        'provider_configuration',
        'Only an OpenID provider with a client secret refreshes tokens.',
      );
    }
    return {
      connection,
      metadata: await this.#metadata.resolve(connection),
      clientSecret: this.#clientSecret(connection),
      http: this.#http,
      clock: this.#deps.clock,
    };
  }

  async #complete(
    connection: OidcConnection,
    input: OidcCompleteInput,
  ): Promise<{ identity: OidcIdentity; claims: OidcClaims | null }> {
    assertRedirectUri(connection, input.redirectUri);
    const exchange = 'code' in input;
    const parameters = exchange
      ? exchangeParameters(input.code, input.iss)
      : callbackParameters(input.callback);
    const expectedState = exchange ? skipStateCheck : input.expectedState;
    if (!exchange) {
      const state = parameters.get('state');
      if (state === null || !safeEqual(state, input.expectedState)) {
        throw new OidcRelyingPartyError(
          'invalid_state',
          'The callback does not carry the state this sign-in sent.',
        );
      }
    }
    const error = parameters.get('error');
    if (error !== null) throw providerError('the sign-in', error, parameters.get('error_description'));
    if ((parameters.get('code') ?? '') === '') {
      throw new OidcRelyingPartyError('invalid_callback', 'The callback carries no authorization code.');
    }

    const profile = connection.profile;
    const metadata = await this.#metadata.resolve(connection);
    const http = this.#http;
    const clock = this.#deps.clock;
    if (profile.protocol === 'oauth_profile') {
      const tokenEndpoint = String(metadata.server.token_endpoint);
      const config = clientConfiguration(connection, metadata, {
        http,
        clock,
        clientSecret: this.#clientSecret(connection),
        fetch: gitHubTokenFetch(http.customFetch, tokenEndpoint),
      });
      const claims = await gitHubProfile({
        config,
        callbackUrl: callbackUrl(input.redirectUri, parameters),
        expectedState,
        codeVerifier: input.codeVerifier,
        userEndpoint: String(metadata.server.userinfo_endpoint),
        emailsEndpoint: String(profile.emailsEndpoint),
      });
      return { identity: identityFromClaims(profile.claimMapping, [claims]), claims: null };
    }

    const apple = profile.authenticationMethod === 'apple';
    const clientSecret = apple
      ? await this.#appleSecrets.secretFor(connection)
      : this.#clientSecret(connection);
    const claims = await oidcGrant({
      connection,
      metadata,
      clientSecret,
      parameters,
      expectedState,
      expectedNonce: input.expectedNonce,
      codeVerifier: input.codeVerifier,
      redirectUri: input.redirectUri,
      exchange,
      http,
      clock,
    });
    const given = apple ? namesFromApplePayload(input.userPayloadJson) : null;
    const { idToken, userInfo } = claims;
    const sources = userInfo === null ? [idToken] : [idToken, userInfo];
    return { identity: identityFromClaims(profile.claimMapping, sources, given), claims };
  }

  /** Drops the cached provider metadata of a connection that was updated or deleted. */
  forget(connectionId: string): void {
    this.#metadata.forget(connectionId);
  }

  #clientSecret(connection: OidcConnection): string {
    const secret = connection.secrets().clientSecret;
    if (secret === null) {
      throw new OidcRelyingPartyError('provider_configuration', 'The connection has no client secret.');
    }
    return secret;
  }
}

/**
 * The redirect URI must be one of the connection's, exactly (docs/reference/federation.md: 1-20 exact URIs).
 * One with a query cannot be used: openid-client sends the callback URL without its query as `redirect_uri`.
 */
function assertRedirectUri(connection: OidcConnection, redirectUri: string): void {
  if (!connection.allowedCallbackUris.includes(redirectUri)) {
    throw new OidcRelyingPartyError(
      'invalid_redirect_uri',
      "The redirect URI is not one of the connection's allowed callback URIs.",
    );
  }
  if (redirectUri.includes('?')) {
    throw new OidcRelyingPartyError(
      'invalid_redirect_uri',
      'A callback URI with a query cannot be used with a provider; list one without.',
    );
  }
}

function checkedAppChecks(checks: NonNullable<OidcStartInput['appChecks']>) {
  const issues = [];
  if (!APP_STATE.test(checks.state))
    issues.push({ path: 'state', message: 'must be 1 to 2048 printable characters' });
  if (!APP_NONCE.test(checks.nonce))
    issues.push({ path: 'nonce', message: 'must be 1 to 512 printable characters' });
  if (!CODE_CHALLENGE.test(checks.codeChallenge)) {
    issues.push({
      path: 'codeChallenge',
      message: 'must be an S256 code challenge (43 base64url characters)',
    });
  }
  if (issues.length > 0) {
    throw new SvcValidationError(
      `Invalid provider sign-in start: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}.`,
      issues,
    );
  }
  return checks;
}

function callbackParameters(callback: string | URL | URLSearchParams): URLSearchParams {
  if (callback instanceof URLSearchParams) return new URLSearchParams(callback);
  if (callback instanceof URL) return new URLSearchParams(callback.searchParams);
  if (!URL.canParse(callback)) {
    throw new OidcRelyingPartyError('invalid_callback', 'The callback URL is not a URL.');
  }
  return new URL(callback).searchParams;
}

function exchangeParameters(code: string, iss: string | null | undefined): URLSearchParams {
  const parameters = new URLSearchParams({ code });
  if (typeof iss === 'string' && iss !== '') parameters.set('iss', iss);
  return parameters;
}

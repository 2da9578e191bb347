import type { ClientRecord } from '../../directory/repository.js';
import { SvcPublicAuthError } from '../../kernel/errors.js';
import type { SamlContinuation } from './authn-requests.js';
import { SamlError } from './errors.js';
import type { HomeRealmDiscovery } from './home-realm.js';
import type { SamlServiceProvider, SamlSignIn } from './service-provider.js';

/** The continuation kind of `POST /sso/authorization-url`: an OAuth authorization code, redeemed at /token. */
export const SSO_AUTHORIZATION_KIND = 'sso-authorization';

/** The continuation kind of the direct request-token flow: a temporary code for ExchangeCodeAsync. */
export const REQUEST_TOKEN_KIND = 'request-token';

export type SamlAppEntryKind = typeof SSO_AUTHORIZATION_KIND | typeof REQUEST_TOKEN_KIND;

/**
 * The request of docs/reference/federation.md "SAML entry points of first-party apps", its client already
 * through the first-party gate.
 */
export interface SamlAppStartInput {
  readonly email: string;
  /** One of the client's registered redirect URIs, exactly (case-sensitive). */
  readonly redirectUri: string;
  readonly state: string;
  /** The S256 challenge of the app's verifier. */
  readonly codeChallenge: string;
}

/** The start's result: the IdP's URL, and the organization the sign-in is for. */
export interface SamlAppStart {
  readonly authorizationUrl: string;
  readonly organizationId: string;
  readonly organizationName: string;
  readonly primaryDomain: string | null;
}

/** The app's checks, kept with the AuthnRequest until the IdP's answer is accepted. */
export interface SamlAppContinuation {
  readonly kind: SamlAppEntryKind;
  readonly clientId: string;
  readonly redirectUri: string;
  readonly state: string;
  readonly codeChallenge: string;
  readonly email: string;
  /**
   * The client's allow-list at the start, space-separated: what the authorization request of
   * `sso-authorization` asks for (docs/reference/federation.md "SAML entry points of first-party apps": the
   * whole allow-list).
   */
  readonly scope: string;
}

export interface SamlAppAuthorizationDeps {
  readonly realms: Pick<HomeRealmDiscovery, 'realmOf'>;
  readonly serviceProvider: Pick<SamlServiceProvider, 'startAuthentication'>;
}

/** A redirect URI the client did not register, exactly: nothing may be sent there. */
export function invalidRedirectUriError(): SvcPublicAuthError {
  return new SvcPublicAuthError(
    'invalid_redirect_uri',
    'The redirect URI is not one of the client’s registered redirect URIs (compared exactly, case included).',
    400,
  );
}

/** The address's domain belongs to no SSO realm (no enabled connection, or an inactive organization). */
export function ssoNotConfiguredError(): SvcPublicAuthError {
  return new SvcPublicAuthError(
    'sso_not_configured',
    'Single sign-on is not set up for this email address’s domain. Sign in another way.',
    400,
  );
}

/**
 * The start of the two SAML entry points of first-party apps (docs/reference/federation.md "SAML entry points
 * of first-party apps"): the redirect URI must be one of the client's, exactly; home-realm discovery finds
 * the email's connection (as DiscoverAsync does); the AuthnRequest is sent with the app's checks as its
 * continuation of `kind`. Whether the client may do this is the caller's (the first-party gate, before
 * anything here).
 */
export class SamlAppAuthorization {
  readonly #deps: SamlAppAuthorizationDeps;

  constructor(deps: SamlAppAuthorizationDeps) {
    this.#deps = deps;
  }

  async start(kind: SamlAppEntryKind, client: ClientRecord, input: SamlAppStartInput): Promise<SamlAppStart> {
    if (!client.redirectUris.includes(input.redirectUri)) throw invalidRedirectUriError();
    const realm = await this.#deps.realms.realmOf(input.email);
    if (realm === undefined) throw ssoNotConfiguredError();
    const continuation: SamlAppContinuation & SamlContinuation = {
      kind,
      clientId: client.clientId,
      redirectUri: input.redirectUri,
      state: input.state,
      codeChallenge: input.codeChallenge,
      email: input.email,
      scope: client.allowedScopes.join(' '),
    };
    let redirectUrl: string;
    try {
      ({ redirectUrl } = await this.#deps.serviceProvider.startAuthentication(
        realm.connectionId,
        continuation,
      ));
    } catch (error) {
      // Disabled between the lookup and the start: the domain has no SSO now.
      if (error instanceof SamlError) throw ssoNotConfiguredError();
      throw error;
    }
    return {
      authorizationUrl: redirectUrl,
      organizationId: realm.organizationId,
      organizationName: realm.organizationName,
      primaryDomain: realm.primaryDomain,
    };
  }
}

/** The app's checks an accepted answer continues with, or undefined when it carries none of `kind`. */
export function appContinuationOf(
  signIn: Pick<SamlSignIn, 'continuation'>,
  kind: SamlAppEntryKind,
): SamlAppContinuation | undefined {
  const { kind: stored, clientId, redirectUri, state, codeChallenge, email, scope } = signIn.continuation;
  if (
    stored !== kind ||
    typeof clientId !== 'string' ||
    typeof redirectUri !== 'string' ||
    typeof state !== 'string' ||
    typeof codeChallenge !== 'string' ||
    typeof email !== 'string' ||
    typeof scope !== 'string'
  ) {
    return undefined;
  }
  return { kind, clientId, redirectUri, state, codeChallenge, email, scope };
}

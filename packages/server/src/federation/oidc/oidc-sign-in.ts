import type { SvcOidcProviderSummary } from '@svc/contract';
import type { OidcAccountLinking, LinkingContext, LinkingOutcome } from './account-linking.js';
import type { OidcConnection, OidcConnections } from './enabled-connections.js';
import type { OidcIdentity } from './identity-claims.js';
import type { OidcLoginStates } from './login-states.js';
import type { OidcRelyingParty } from './relying-party.js';
import { OidcRelyingPartyError } from './rp-errors.js';

/** The enabled connections as a sign-in UI offers them: a button each, with the provider's name and logo. */
export function providerSummaries(connections: readonly OidcConnection[]): SvcOidcProviderSummary[] {
  return connections.map((connection) => ({
    connectionId: connection.id,
    providerType: connection.providerType,
    displayName: connection.displayName,
    logoDataUrl: connection.profile.logoDataUrl,
  }));
}

export interface OidcSignInDeps {
  readonly connections: Pick<OidcConnections, 'findEnabled' | 'listEnabled'>;
  readonly relyingParty: Pick<OidcRelyingParty, 'start' | 'complete'>;
  readonly states: Pick<OidcLoginStates, 'begin' | 'take'>;
  readonly linking: Pick<OidcAccountLinking, 'resolve'>;
  /** Svc's own callback, `{issuer}/oidc/callback`, where every provider sends the user back. */
  readonly callbackUri: string;
}

/** A sign-in through a provider that came back: the request it continues, and who the provider named. */
export interface OidcSignInResult {
  readonly authRequestId: string | null;
  readonly connection: OidcConnection;
  readonly identity: OidcIdentity;
  /** Which account the identity signs in as (or why none). */
  readonly account: LinkingOutcome;
}

/** A connection that is unknown or disabled (it may have been disabled while the user was away). */
function unknownProvider(): OidcRelyingPartyError {
  return new OidcRelyingPartyError('invalid_callback', 'This sign-in provider is not available.');
}

/**
 * The hosted and headless sign-in through a provider: `begin` sends the user to the provider from an
 * authorization request, remembering the sign-in by its state; `finish` takes the callback once, has the
 * relying party check it and redeem the code, and links the identity to an account. Creating the
 * session is the sign-in engine's, like after any other method.
 */
export class OidcSignIn {
  readonly #deps: OidcSignInDeps;

  constructor(deps: OidcSignInDeps) {
    this.#deps = deps;
  }

  /** The enabled providers, oldest first. */
  async providers(): Promise<SvcOidcProviderSummary[]> {
    return providerSummaries(await this.#deps.connections.listEnabled());
  }

  /** The provider's authorization URL for a sign-in that continues `authRequestId`. */
  async begin(
    connectionId: string,
    input: { readonly authRequestId: string | null; readonly loginHint?: string | null },
  ): Promise<{ readonly authorizationUrl: string }> {
    const connection = await this.#deps.connections.findEnabled(connectionId);
    if (connection === undefined) throw unknownProvider();
    const redirectUri = this.#deps.callbackUri;
    const start = await this.#deps.relyingParty.start(connection, {
      redirectUri,
      loginHint: input.loginHint,
    });
    await this.#deps.states.begin(start.state, {
      connectionId: connection.id,
      authRequestId: input.authRequestId,
      redirectUri,
      nonce: start.nonce,
      // Svc made the checks here, so it holds the verifier (only an app's own checks leave it null).
      codeVerifier: start.codeVerifier ?? '',
    });
    return { authorizationUrl: start.authorizationUrl };
  }

  /**
   * The provider's callback (its query, or Apple's form post): the sign-in it continues, taken once.
   * Throws OidcRelyingPartyError for an unknown, used or expired state, a disabled connection, or an
   * answer the relying party refuses.
   */
  async finish(callback: URLSearchParams, context: LinkingContext = {}): Promise<OidcSignInResult> {
    const state = callback.get('state');
    const inFlight = state === null || state === '' ? undefined : await this.#deps.states.take(state);
    if (state === null || inFlight === undefined) {
      throw new OidcRelyingPartyError(
        'invalid_state',
        'This sign-in is no longer valid: it expired or was already used. Start again.',
      );
    }
    const connection = await this.#deps.connections.findEnabled(inFlight.connectionId);
    if (connection === undefined) throw unknownProvider();
    const identity = await this.#deps.relyingParty.complete(connection, {
      callback,
      expectedState: state,
      redirectUri: inFlight.redirectUri,
      expectedNonce: inFlight.nonce,
      codeVerifier: inFlight.codeVerifier,
      userPayloadJson: callback.get('user'),
    });
    const account = await this.#deps.linking.resolve(
      { id: connection.id, authenticationMethod: connection.profile.authenticationMethod },
      identity,
      context,
    );
    return { authRequestId: inFlight.authRequestId, connection, identity, account };
  }
}

import type { SvcOidcProviderSummary } from '@svc/contract';
import type { AuditLog } from '../../audit/audit-log.js';
import { lookUpHandedOut, type HandedOutTokenLimit } from '../../ratelimit/handed-out-tokens.js';
import type { OidcAccountLinking, LinkingContext, LinkingOutcome } from './account-linking.js';
import type { OidcConnection, OidcConnections } from './enabled-connections.js';
import type { OidcIdentity } from './identity-claims.js';
import type { OidcLoginStates } from './login-states.js';
import type { OidcRelyingParty } from './relying-party.js';
import { OidcRelyingPartyError } from './rp-errors.js';

/**
 * The amr of every sign-in through a provider (hosted, headless and the first-party apps' exchange).
 * RFC 8176 has no value for a sign-in at another identity provider; `fed` is the one Microsoft Entra ID
 * uses for "a federated identity assertion was used" (docs/reference/federation.md "First-party apps").
 */
export const AMR_FEDERATED = 'fed';

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
  /** Callback states that continue nothing, counted per address with every handed-out token. */
  readonly tokenChecks: HandedOutTokenLimit;
  readonly audit: AuditLog;
  /** Svc's own callback, `{issuer}/oidc/callback`, where every provider sends the user back. */
  readonly callbackUri: string;
}

/** A provider that named someone, and the account that identity signs in as (or why none). */
export interface OidcCompletion {
  readonly connection: OidcConnection;
  readonly identity: OidcIdentity;
  readonly account: LinkingOutcome;
}

/**
 * A sign-in through a provider that came back: the authorization request it continues, and either who
 * signed in or why the provider's answer was refused (the user said no, a forged or expired ID token…).
 */
export interface OidcSignInResult {
  readonly authRequestId: string | null;
  readonly outcome:
    | ({ readonly kind: 'completed' } & OidcCompletion)
    | { readonly kind: 'failed'; readonly connection: OidcConnection; readonly error: OidcRelyingPartyError };
}

/** A connection that is unknown or disabled (it may have been disabled while the user was away). */
function unknownProvider(): OidcRelyingPartyError {
  return new OidcRelyingPartyError('invalid_callback', 'This sign-in provider is not available.');
}

/**
 * The hosted and headless sign-in through a provider: `begin` sends the user to the provider from an
 * authorization request, remembering the sign-in by its state; `finish` takes the callback once, has the
 * relying party check it and redeem the code, and links the identity to an account. Creating the
 * session is the sign-in engine's, like after any other method. Every completion is audited with the
 * client's address (`oidc.authorization.completed`, or `.failed` with the reason).
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
  ): Promise<{ readonly authorizationUrl: string; readonly connection: OidcConnection }> {
    const connection = await this.enabled(connectionId);
    const redirectUri = this.#deps.callbackUri;
    const start = await this.#deps.relyingParty.start(connection, {
      redirectUri,
      loginHint: input.loginHint,
    });
    if (start.codeVerifier === null) throw new Error('A sign-in Svc starts holds its own PKCE verifier.');
    await this.#deps.states.begin(start.state, {
      connectionId: connection.id,
      authRequestId: input.authRequestId,
      redirectUri,
      nonce: start.nonce,
      codeVerifier: start.codeVerifier,
    });
    return { authorizationUrl: start.authorizationUrl, connection };
  }

  /**
   * The provider's callback (its query, or Apple's form post): the sign-in it continues, taken once, and
   * its outcome. Throws OidcRelyingPartyError `invalid_state` for an unknown, used or expired state and
   * `invalid_callback` for a connection disabled meanwhile (nothing is known to continue then).
   *
   * `admit` sees the authorization request first and throws when this browser may not continue it, so
   * that a callback carried to another browser (login CSRF) redeems nothing and links nothing; it answers
   * where the sign-in happens, for the audit trail. A state that continues nothing is counted against
   * the `address` the callback came from.
   */
  async finish(
    callback: URLSearchParams,
    admit: (authRequestId: string | null) => Promise<LinkingContext> = () => Promise.resolve({}),
    address?: string,
  ): Promise<OidcSignInResult> {
    const state = callback.get('state');
    const inFlight =
      state === null || state === ''
        ? undefined
        : await lookUpHandedOut(this.#deps.tokenChecks, address, () => this.#deps.states.take(state));
    if (state === null || inFlight === undefined) {
      throw new OidcRelyingPartyError(
        'invalid_state',
        'This sign-in is no longer valid: it expired or was already used. Start again.',
      );
    }
    const connection = await this.enabled(inFlight.connectionId);
    const context = await admit(inFlight.authRequestId);
    let identity: OidcIdentity;
    try {
      identity = await this.#deps.relyingParty.complete(connection, {
        callback,
        expectedState: state,
        redirectUri: inFlight.redirectUri,
        expectedNonce: inFlight.nonce,
        codeVerifier: inFlight.codeVerifier,
        userPayloadJson: callback.get('user'),
      });
    } catch (error) {
      if (!(error instanceof OidcRelyingPartyError)) throw error;
      await this.failed(connection, error, context);
      return { authRequestId: inFlight.authRequestId, outcome: { kind: 'failed', connection, error } };
    }
    const completion = await this.link(connection, identity, context);
    return { authRequestId: inFlight.authRequestId, outcome: { kind: 'completed', ...completion } };
  }

  /** The enabled connection, or `invalid_callback` (unknown, or disabled). */
  async enabled(connectionId: string): Promise<OidcConnection> {
    const connection = await this.#deps.connections.findEnabled(connectionId);
    if (connection === undefined) throw unknownProvider();
    return connection;
  }

  /** Links the provider's identity to its account and audits the completion with the client's address. */
  async link(
    connection: OidcConnection,
    identity: OidcIdentity,
    context: LinkingContext,
  ): Promise<OidcCompletion> {
    const account = await this.#deps.linking.resolve(
      {
        id: connection.id,
        authenticationMethod: connection.profile.authenticationMethod,
        organizationId: connection.organizationId,
      },
      identity,
      context,
    );
    if (account.kind !== 'refused') {
      await this.#deps.audit.record({
        kind: 'oidc.authorization.completed',
        actorType: 'user',
        actorId: account.user.id,
        userId: account.user.id,
        ...auditPlace(context),
        data: {
          connectionId: connection.id,
          providerType: connection.providerType,
          authenticationMethod: connection.profile.authenticationMethod,
          userCreated: account.kind === 'created',
        },
      });
    }
    return { connection, identity, account };
  }

  /** Audits a provider answer that was refused (a forged ID token, a wrong nonce, the user said no). */
  async failed(
    connection: OidcConnection,
    error: OidcRelyingPartyError,
    context: LinkingContext,
  ): Promise<void> {
    await this.#deps.audit.record({
      kind: 'oidc.authorization.failed',
      actorType: 'user',
      ...auditPlace(context),
      data: {
        connectionId: connection.id,
        providerType: connection.providerType,
        error: error.code,
        ...(error.providerError === null ? {} : { providerError: error.providerError }),
      },
    });
  }
}

function auditPlace(context: LinkingContext): { ipAddress?: string; clientId?: string } {
  return {
    ...(context.ipAddress === undefined ? {} : { ipAddress: context.ipAddress }),
    ...(context.clientId === undefined ? {} : { clientId: context.clientId }),
  };
}

import type { SvcLoginResult, SvcPasswordLoginInput, SvcSignupInput } from '@svc/contract';
import type { ClientRecord, UserRepository } from '../directory/repository.js';
import type { ApplicationAccess } from '../applications/application-access.js';
import type { Clock } from '../kernel/clock.js';
import { SvcClientAuthenticationError, SvcNotFoundError, SvcPublicAuthError } from '../kernel/errors.js';
import { oauthError, UnknownGrantError } from '../oauth/errors.js';
import { countingUnknownValues, type TokenGrantDeps } from '../oauth/token/grant-context.js';
import { lookUpHandedOut, type HandedOutTokenLimit } from '../ratelimit/handed-out-tokens.js';
import { checkResource } from '../oauth/resource-indicators.js';
import type { IssuedTokens } from '../oauth/tokens/issued-tokens.js';
import type { SessionRecord } from '../oauth/tokens/repository.js';
import type { TokenEngine } from '../oauth/tokens/token-engine.js';
import type { OrganizationPolicy } from './organization-policy.js';
import { invalidCredentialsError, type PasswordAuthenticator } from './password-authenticator.js';
import { invalidPendingTokenError, type SignInEngine, type SignInOutcome } from './sign-in-engine.js';
import type { SignedInIdentity } from './signed-in-identity.js';
import { DirectClientGate, type DirectClientGateDeps, type GateCallContext } from './direct-client-gate.js';
import { recordDirectLogin } from './direct-login-audit.js';
import { toLoginResult, type DirectLoginOutcome } from './direct-login-result.js';
import type { SignupService } from './signup.js';

/** The flow name of the direct helpers: their pending tokens continue only here. */
export const DIRECT_FLOW = 'direct';

/** RFC 8176 `pwd`: password authentication. */
export const AMR_PASSWORD = 'pwd';

export interface DirectSignInDeps extends DirectClientGateDeps {
  readonly users: Pick<UserRepository, 'findById'>;
  readonly passwords: PasswordAuthenticator;
  readonly signup: SignupService;
  readonly engine: SignInEngine;
  readonly organizations: OrganizationPolicy;
  readonly tokens: TokenEngine;
  /** Challenge tokens that find nothing, per client address (failureLimits.tokenIp). */
  readonly tokenChecks: HandedOutTokenLimit;
  /** Unknown refresh tokens per client address, as at the token endpoint. */
  readonly rejectedTokens: TokenGrantDeps['rejectedTokens'];
  /** Application access: checked before any direct sign-in gets its tokens. */
  readonly access: Pick<ApplicationAccess, 'requireUser'>;
  readonly clock: Clock;
}

/**
 * Where a direct call comes from: the route (or in-process operation) name, the caller's address, and
 * the client credentials it presented (checked by the client gate).
 */
export interface DirectCallContext extends GateCallContext {
  readonly userAgent?: string | null;
}

/**
 * The address a direct call's presented links and codes are counted against (`failureLimits.tokenIp`):
 * the caller's, unless the client authenticated with its secret. Then the caller is the client's backend
 * relaying its users' links, and a lock on its address would lock every user of the app out.
 */
export function tokenCheckAddress(client: ClientRecord, context: GateCallContext): string | null {
  return client.clientSecretHash === null ? (context.ipAddress ?? null) : null;
}

/** Where an in-process or route call comes from, as SvcAuthService's operations take it. */
export interface CallerContext {
  readonly route?: string;
  readonly ipAddress?: string | null;
  readonly userAgent?: string | null;
  /** The HTTP Authorization header a direct route received (client_secret_basic). */
  readonly authorization?: string | null;
}

/**
 * The DirectCallContext of an operation: the route when a route calls, else the operation name; the
 * request's `clientSecret` (null when it has none) beside the Authorization header of the context.
 */
export function directCallOf(
  operation: string,
  context: CallerContext | undefined,
  clientSecret: string | null = null,
): DirectCallContext {
  return {
    operation: context?.route ?? operation,
    ipAddress: context?.ipAddress ?? null,
    userAgent: context?.userAgent ?? null,
    authorization: context?.authorization ?? null,
    clientSecret,
  };
}

const NO_FIRST_PARTY_SESSION = 'An active first-party session is required.';

/**
 * The direct JSON helpers' use of the sign-in engine (docs/reference/sign-in.md "Direct JSON helpers": first-party clients
 * only; tokens in the body). Every sign-in operation checks the client first, before any credential check,
 * email or token minting (DirectClientGate): a missing, unknown, inactive or non-first-party client is a
 * 400 `invalid_client`, a confidential client without its secret a 401 `invalid_client`, each with one
 * `oauth.direct_login.rejected` event. Direct sessions are granted the client's whole allow-list
 * (docs/reference/sign-in.md "Direct JSON helpers"), bound to no resource, and carry no ID token.
 */
export class DirectSignIn {
  readonly #deps: DirectSignInDeps;
  readonly #gate: DirectClientGate;

  constructor(deps: DirectSignInDeps) {
    this.#deps = deps;
    this.#gate = new DirectClientGate(deps);
  }

  /**
   * The first-party client named by `clientId` (or by the context's HTTP Basic credentials when null),
   * authenticated when confidential; or the rejection (audited once).
   */
  requireFirstPartyClient(clientId: string | null, context: DirectCallContext): Promise<ClientRecord> {
    return this.#gate.require(clientId, context);
  }

  /**
   * Looks up a direct call's challenge token (pending, MFA, email code), counting one that finds nothing
   * against the caller's address (`failureLimits.tokenIp`), unless the call's credentials are a
   * confidential client's own: its backend relays its users' tokens
   * (docs/decisions/handed-out-token-failures.md).
   */
  async lookUpChallenge<T>(
    context: DirectCallContext,
    lookup: () => Promise<T | undefined>,
  ): Promise<T | undefined> {
    const relayed = context.ipAddress != null && (await this.#gate.relaying(context));
    return lookUpHandedOut(this.#deps.tokenChecks, relayed ? null : context.ipAddress, lookup);
  }

  /**
   * LoginWithPasswordAsync: a generic 401 `invalid_credentials` for every credential failure, and
   * SvcTooManyAttemptsError (429 `too_many_attempts`) while a limit on password guessing holds. Like the
   * hosted password step, each checked password is audited: `oauth.direct_login.succeeded` (with the
   * user) or `oauth.direct_login.failed` (without: an unknown address must not be told apart).
   */
  async loginWithPassword(
    input: SvcPasswordLoginInput,
    context: DirectCallContext,
  ): Promise<DirectLoginOutcome> {
    const client = await this.requireFirstPartyClient(input.clientId, context);
    const result = await this.#deps.passwords.authenticate(input.email, input.password, {
      ...context,
      clientId: client.clientId,
    });
    const check = { userId: result.ok ? result.user.id : null, organizationId: input.organizationId };
    await recordDirectLogin(this.#deps.audit, { ...check, method: 'password' }, client.clientId, context);
    if (!result.ok) throw invalidCredentialsError();
    const outcome = await this.#deps.engine.signIn({
      userId: result.user.id,
      clientId: client.clientId,
      requestedOrganizationId: input.organizationId,
      amr: [AMR_PASSWORD],
      authTime: this.#deps.clock.now(),
      flow: DIRECT_FLOW,
    });
    return this.#finish(outcome, client, context);
  }

  /** SignUpAsync: creates the account (and organization), then signs the new user in. */
  async signUp(input: SvcSignupInput, context: DirectCallContext): Promise<DirectLoginOutcome> {
    const client = await this.requireFirstPartyClient(input.clientId, context);
    const { user, organizationId } = await this.#deps.signup.signUp(input, context);
    const outcome = await this.#deps.engine.signIn({
      userId: user.id,
      clientId: client.clientId,
      requestedOrganizationId: organizationId,
      amr: [AMR_PASSWORD],
      authTime: this.#deps.clock.now(),
      flow: DIRECT_FLOW,
    });
    return this.#finish(outcome, client, context);
  }

  /**
   * SelectOrganizationForLoginAsync: the pending token names the client, which must still be first-party.
   * An unknown, expired or used token is `invalid_token` (400); a foreign organization access_denied (403).
   */
  async selectOrganization(
    input: { pendingAuthToken: string; organizationId: string },
    context: DirectCallContext,
  ): Promise<DirectLoginOutcome> {
    const pending = await this.lookUpChallenge(context, () =>
      this.#deps.engine.pendingSelection(input.pendingAuthToken, DIRECT_FLOW),
    );
    if (pending === undefined) throw invalidPendingTokenError();
    const client = await this.requireFirstPartyClient(pending.clientId, context);
    const outcome = await this.#deps.engine.selectOrganization({ ...input, flow: DIRECT_FLOW });
    return this.#finish(outcome, client, context);
  }

  /**
   * RefreshAsync and POST /token/refresh: no client authentication channel, so only public clients'
   * tokens rotate here. A confidential client's token is refused with SvcClientAuthenticationError (401
   * invalid_client 'Client authentication failed.') and an `oauth.client_authentication.failed` event,
   * before rotation: the token is not consumed and no grace-window answer is released. A deactivated
   * client's token gets the same 401. An unknown token is counted against the caller's address, as at
   * the token endpoint.
   */
  async refresh(
    input: { refreshToken: string; organizationId: string | null },
    context: DirectCallContext,
  ): Promise<IssuedTokens> {
    return countingUnknownValues(this.#deps, undefined, context.ipAddress ?? null, () =>
      this.#refresh(input, context),
    );
  }

  async #refresh(
    input: { refreshToken: string; organizationId: string | null },
    context: DirectCallContext,
  ): Promise<IssuedTokens> {
    const owner = await this.#deps.tokens.refresh.owner(input.refreshToken);
    if (owner === undefined) throw new UnknownGrantError('The refresh token is not valid.');
    const client = await this.#deps.clients.findByClientId(owner.clientId);
    if (client === undefined) throw oauthError.invalidGrant('The refresh token is not valid.');
    if (!client.active) throw new SvcClientAuthenticationError();
    if (client.tokenEndpointAuthMethod !== 'none') {
      await this.#deps.audit.record({
        kind: 'oauth.client_authentication.failed',
        actorType: 'client',
        actorId: client.clientId,
        clientId: client.clientId,
        userId: owner.userId,
        ...(context.ipAddress == null ? {} : { ipAddress: context.ipAddress }),
        data: {
          client_id: client.clientId,
          route: context.operation,
          reason: 'confidential_client_without_authentication',
        },
      });
      throw new SvcClientAuthenticationError();
    }
    return this.#deps.tokens.refresh.refresh({
      refreshToken: input.refreshToken,
      client,
      organizationId: input.organizationId,
    });
  }

  /**
   * CreateSessionTokensForUserAsync (docs/reference/sign-in.md "Client-authenticated and privileged sign-ins"): the privileged escape hatch for a host
   * that authenticated the user itself. It skips organization selection (and MFA) and the first-party
   * rule, but the user must be active, a given organization an active membership (403 otherwise), and a
   * resource one of the client's (invalid_target). Never exposed as a route.
   */
  async createSessionTokensForUser(input: {
    userId: string;
    clientId: string;
    organizationId: string | null;
    authenticationMethod: string;
    userAgent: string | null;
    ipAddress: string | null;
    resource: string | null;
  }): Promise<IssuedTokens> {
    const user = await this.#deps.users.findById(input.userId);
    if (user === undefined || !user.active) {
      throw new SvcNotFoundError(`User '${input.userId}' was not found or is not active.`);
    }
    const client = await this.#deps.clients.findByClientId(input.clientId);
    if (client === undefined || !client.active) {
      throw new SvcNotFoundError(`Client '${input.clientId}' was not found or is not active.`);
    }
    if (input.organizationId !== null) {
      await this.#deps.organizations.requireMember(user.id, input.organizationId);
    }
    const resource = checkResource(input.resource === null ? [] : [input.resource], client);
    if (!resource.ok) throw oauthError.invalidTarget(resource.description);
    // docs/reference/sign-in.md "Client-authenticated and privileged sign-ins": it "still applies application-access assignments".
    const who = { userId: user.id, organizationId: input.organizationId, isOperator: user.isOperator };
    await this.#deps.access.requireUser(client, who, { flow: 'session_tokens', ipAddress: input.ipAddress });
    return this.#deps.tokens.sessions.issueForNewSession({
      userId: user.id,
      client,
      organizationId: input.organizationId,
      scopes: client.allowedScopes,
      resource: resource.resource,
      amr: [input.authenticationMethod],
      authTime: this.#deps.clock.now(),
      includeIdToken: false,
      userAgent: input.userAgent,
      ipAddress: input.ipAddress,
    });
  }

  /**
   * The session behind POST /account/grants and /account/grants/revoke: an active refresh token of a
   * first-party client. Anything else is the same generic 401 (docs/reference/tokens-and-sessions.md "Consent grants of an account": same generic 401 for
   * third-party tokens).
   */
  async requireFirstPartySession(refreshToken: string): Promise<SessionRecord> {
    const session = await this.#deps.tokens.revocation.activeSession(refreshToken);
    const client =
      session === undefined ? undefined : await this.#deps.clients.findByClientId(session.clientId);
    if (session === undefined || client === undefined || !client.active || !client.isFirstParty) {
      throw new SvcPublicAuthError('invalid_token', NO_FIRST_PARTY_SESSION, 401);
    }
    return session;
  }

  /**
   * Signs in a user whose credential another flow proved (email OTP, magic link, phone OTP, invitation
   * signup, an identity provider), in the direct flow, and shapes the SvcLoginResult exactly as password
   * login does: organization selection, or a session granted the client's whole allow-list, bound to no
   * resource, without an ID token. Audited `oauth.direct_login.succeeded` with `method` (the hosted
   * flow's name of it, such as `email_otp`), as a direct password sign-in is. A clientId (string) is
   * checked with requireFirstPartyClient first; a client record is taken as already checked. authTime
   * defaults to the clock's now.
   */
  async completeSignIn(
    input: {
      readonly userId: string;
      readonly client: ClientRecord | string;
      readonly requestedOrganizationId: string | null;
      readonly amr: string;
      readonly method: string;
      readonly authTime?: number;
    },
    context: DirectCallContext,
  ): Promise<SvcLoginResult> {
    const client =
      typeof input.client === 'string'
        ? await this.requireFirstPartyClient(input.client, context)
        : input.client;
    const check = { userId: input.userId, organizationId: input.requestedOrganizationId };
    await recordDirectLogin(this.#deps.audit, { ...check, method: input.method }, client.clientId, context);
    const outcome = await this.#deps.engine.signIn({
      userId: input.userId,
      clientId: client.clientId,
      requestedOrganizationId: input.requestedOrganizationId,
      amr: [input.amr],
      authTime: input.authTime ?? this.#deps.clock.now(),
      flow: DIRECT_FLOW,
    });
    return toLoginResult(await this.#finish(outcome, client, context));
  }

  async #finish(
    outcome: SignInOutcome,
    client: ClientRecord,
    context: DirectCallContext,
  ): Promise<DirectLoginOutcome> {
    switch (outcome.kind) {
      case 'organization_selection':
        return {
          kind: 'organization_selection',
          pendingAuthToken: outcome.pendingAuthToken,
          organizations: outcome.organizations,
        };
      case 'mfa':
        return {
          kind: 'mfa',
          mfaToken: outcome.mfaToken,
          enrollmentRequired: outcome.enrollmentRequired,
          methods: outcome.methods,
        };
      case 'complete':
        return { kind: 'complete', tokens: await this.issueDirectTokens(outcome.identity, client, context) };
    }
  }

  /**
   * Tokens of a completed direct sign-in: a session granted the client's whole allow-list, bound to no
   * resource, without an ID token.
   */
  async issueDirectTokens(
    identity: SignedInIdentity,
    client: ClientRecord,
    context: DirectCallContext,
  ): Promise<IssuedTokens> {
    const who = { userId: identity.userId, organizationId: identity.organizationId };
    await this.#deps.access.requireUser(client, who, { flow: 'direct', ipAddress: context.ipAddress });
    return this.#deps.tokens.sessions.issueForNewSession({
      userId: identity.userId,
      client,
      organizationId: identity.organizationId,
      scopes: client.allowedScopes,
      resource: null,
      amr: identity.amr,
      authTime: identity.authTime,
      includeIdToken: false,
      userAgent: context.userAgent ?? null,
      ipAddress: context.ipAddress ?? null,
    });
  }
}

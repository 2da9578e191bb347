import type { AuditLog } from '../audit/audit-log.js';
import { SamlAppAuthorization } from '../federation/saml/app-entry.js';
import { SamlAssertionConsumer } from '../federation/saml/assertion-consumer.js';
import type { SamlContinuationHandler } from '../federation/saml/continuations.js';
import { SamlRequestCodes } from '../federation/saml/request-codes.js';
import { samlRequestTokenContinuation } from '../federation/saml/request-token-continuation.js';
import { samlSignInContinuation } from '../hosted/saml/sign-in-continuation.js';
import { samlSsoAuthorizationContinuation } from '../hosted/saml/sso-authorization-continuation.js';
import type { HostedSignInDeps } from '../hosted/sign-in-deps.js';
import type { Clock } from '../kernel/clock.js';
import type { Ids } from '../kernel/ids.js';
import type { HandedOutTokenLimit } from '../ratelimit/handed-out-tokens.js';
import type { DirectProviderSignIn } from '../signin/direct-provider-sign-in.js';
import type { DirectSignIn } from '../signin/direct-sign-in.js';
import { DirectSsoSignIn } from '../signin/direct-sso-sign-in.js';
import { SAML } from '../signin/methods/saml/method.js';
import type { Db } from '../storage/database.js';
import { samlRequestCodeRepository } from '../storage/repositories/saml-request-codes.js';
import { SvcSsoService } from './facades/svc-sso-service.js';
import type { SsoConnectionsWiring } from './wire-sso-connections.js';

export interface WireSamlSignInContext {
  readonly sso: SsoConnectionsWiring;
  /** The hosted sign-in: the SAML method's actions, the cookies' site, the app-owned UI. */
  readonly hostedSignIn: HostedSignInDeps;
  readonly audit: AuditLog;
  /** Handed-out tokens refused per address (the engine's `tokenChecks`): the ACS's handles. */
  readonly tokenChecks: HandedOutTokenLimit;
  /** The continuations of other entry points (`sso-authorization`, `request-token`, `portal-test`). */
  readonly handlers?: readonly SamlContinuationHandler[];
}

/** The engine's `sign-in` continuation, when the SAML method is registered. */
function samlSignInHandler(hostedSignIn: HostedSignInDeps): SamlContinuationHandler | undefined {
  const saml = hostedSignIn.flow.methods.get(SAML);
  const { site, appUi } = hostedSignIn;
  return saml === undefined
    ? undefined
    : samlSignInContinuation({ saml, site, ...(appUi === undefined ? {} : { appUi }) });
}

/**
 * The ACS's consumer of accepted answers with every continuation: the engine's `sign-in` (when the SAML
 * method is registered) and the other entry points'.
 */
export function wireSamlAssertionConsumer(ctx: WireSamlSignInContext): SamlAssertionConsumer {
  const signIn = samlSignInHandler(ctx.hostedSignIn);
  return new SamlAssertionConsumer({
    serviceProvider: ctx.sso.serviceProvider,
    handles: ctx.sso.handles,
    handlers: [...(signIn === undefined ? [] : [signIn]), ...(ctx.handlers ?? [])],
    tokenChecks: ctx.tokenChecks,
    audit: ctx.audit,
  });
}

export interface WireSamlAppEntryContext {
  readonly db: Db;
  readonly sso: SsoConnectionsWiring;
  readonly hostedSignIn: HostedSignInDeps;
  /** The direct helpers' client gate. */
  readonly direct: Pick<DirectSignIn, 'requireFirstPartyClient'>;
  /** The sign-in of a user an identity provider vouched for (`firstParty.signInFederatedUser`). */
  readonly oidc: { readonly firstParty: Pick<DirectProviderSignIn, 'signInFederatedUser'> };
  /** Handed-out tokens refused per address (the engine's `tokenChecks`). */
  readonly tokenChecks: HandedOutTokenLimit;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}

/** The SAML entry points of first-party apps: the SSO facade and the continuations of its two kinds. */
export interface SamlAppEntryWiring {
  readonly sso: SvcSsoService;
  readonly handlers: readonly SamlContinuationHandler[];
}

/**
 * `POST /sso/authorization-url` (continuation `sso-authorization`, through the engine's `sign-in`
 * continuation when the SAML method is registered) and the request-token flow (continuation
 * `request-token`, its codes redeemed by ExchangeCodeAsync and `POST /token/exchange`).
 */
export function wireSamlAppEntry(ctx: WireSamlAppEntryContext): SamlAppEntryWiring {
  const codes = new SamlRequestCodes({
    repository: samlRequestCodeRepository(ctx.db),
    clock: ctx.clock,
    ids: ctx.ids,
  });
  const signIn = samlSignInHandler(ctx.hostedSignIn);
  const sso = new SvcSsoService({
    signIn: new DirectSsoSignIn({
      direct: ctx.direct,
      authorization: new SamlAppAuthorization({
        realms: ctx.sso.realms,
        serviceProvider: ctx.sso.serviceProvider,
      }),
      codes,
      federated: ctx.oidc.firstParty,
      tokenChecks: ctx.tokenChecks,
    }),
  });
  const requestToken = samlRequestTokenContinuation({
    accounts: ctx.sso.accounts,
    codes,
    audit: ctx.audit,
    clock: ctx.clock,
  });
  const ssoAuthorization =
    signIn === undefined ? [] : [samlSsoAuthorizationContinuation({ flow: ctx.hostedSignIn.flow, signIn })];
  return { sso, handlers: [requestToken, ...ssoAuthorization] };
}

import type { AuditLog } from '../audit/audit-log.js';
import { SamlAssertionConsumer } from '../federation/saml/assertion-consumer.js';
import type { SamlContinuationHandler } from '../federation/saml/continuations.js';
import { samlSignInContinuation } from '../hosted/saml/sign-in-continuation.js';
import type { HostedSignInDeps } from '../hosted/sign-in-deps.js';
import { SAML } from '../signin/methods/saml/method.js';
import type { SsoConnectionsWiring } from './wire-sso-connections.js';

export interface WireSamlSignInContext {
  readonly sso: SsoConnectionsWiring;
  /** The hosted sign-in: the SAML method's actions, the cookies' site, the app-owned UI. */
  readonly hostedSignIn: HostedSignInDeps;
  readonly audit: AuditLog;
  /** The continuations of other entry points (`sso-authorization`, `request-token`, `portal-test`). */
  readonly handlers?: readonly SamlContinuationHandler[];
}

/**
 * The ACS's consumer of accepted answers with every continuation: the engine's `sign-in` (when the SAML
 * method is registered) and the other entry points'.
 */
export function wireSamlAssertionConsumer(ctx: WireSamlSignInContext): SamlAssertionConsumer {
  const saml = ctx.hostedSignIn.flow.methods.get(SAML);
  const { site, appUi } = ctx.hostedSignIn;
  return new SamlAssertionConsumer({
    serviceProvider: ctx.sso.serviceProvider,
    handles: ctx.sso.handles,
    handlers: [
      ...(saml === undefined
        ? []
        : [samlSignInContinuation({ saml, site, ...(appUi === undefined ? {} : { appUi }) })]),
      ...(ctx.handlers ?? []),
    ],
    audit: ctx.audit,
  });
}

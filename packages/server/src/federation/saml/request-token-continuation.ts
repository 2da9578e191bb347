import type { AuditLog } from '../../audit/audit-log.js';
import type { Clock } from '../../kernel/clock.js';
import { appContinuationOf, REQUEST_TOKEN_KIND } from './app-entry.js';
import { signInExpired } from './assertion-consumer.js';
import type { SamlContinuationHandler } from './continuations.js';
import type { SamlRequestCodes } from './request-codes.js';
import type { SamlAccounts } from './saml-accounts.js';

export interface SamlRequestTokenContinuationDeps {
  readonly accounts: Pick<SamlAccounts, 'resolve'>;
  readonly codes: Pick<SamlRequestCodes, 'issue'>;
  readonly audit: AuditLog;
  readonly clock: Clock;
}

/**
 * The `request-token` continuation (the direct SAML request-token flow,
 * docs/reference/federation.md "SAML entry points of first-party apps"): the accepted answer's account is
 * resolved as in every SAML sign-in (saml-accounts.ts), and the browser goes back to the app's redirect URI
 * with a temporary code and the app's state. The code is bound to the client, that redirect URI and the
 * start's PKCE challenge, and signs in to the connection's organization when ExchangeCodeAsync (or
 * `POST /token/exchange`) redeems it; the organization's rules (MFA) apply there. No session starts here.
 */
export function samlRequestTokenContinuation(
  deps: SamlRequestTokenContinuationDeps,
): SamlContinuationHandler {
  return {
    kind: REQUEST_TOKEN_KIND,
    async complete(signIn, _cookies, place) {
      const app = appContinuationOf(signIn, REQUEST_TOKEN_KIND);
      if (app === undefined) throw signInExpired();
      const context = {
        clientId: app.clientId,
        ...(place.ipAddress === undefined ? {} : { ipAddress: place.ipAddress }),
      };
      const account = await deps.accounts.resolve(signIn, context);
      await deps.audit.record({
        kind: 'saml.sign_in.completed',
        actorType: 'user',
        actorId: account.user.id,
        userId: account.user.id,
        organizationId: account.organizationId,
        ...context,
        data: {
          connectionId: signIn.connection.id,
          userCreated: account.kind === 'created',
          continuation: REQUEST_TOKEN_KIND,
        },
      });
      const code = await deps.codes.issue({
        clientId: app.clientId,
        redirectUri: app.redirectUri,
        codeChallenge: app.codeChallenge,
        userId: account.user.id,
        organizationId: account.organizationId,
        connectionId: signIn.connection.id,
        authTime: deps.clock.now(),
      });
      const location = new URL(app.redirectUri);
      location.searchParams.set('code', code);
      location.searchParams.set('state', app.state);
      return location.href;
    },
  };
}

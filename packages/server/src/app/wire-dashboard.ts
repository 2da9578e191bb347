import type { AuditLog } from '../audit/audit-log.js';
import type { SvcConfig } from '../config/resolve.js';
import { deriveHostedKey } from '../http/antiforgery.js';
import type { Clock } from '../kernel/clock.js';
import type { Ids } from '../kernel/ids.js';
import { SessionCsrf } from '../kernel/session-csrf.js';
import { countingUnknownValues } from '../oauth/token/grant-context.js';
import { DASHBOARD_CLIENT_ID, ensureDashboardClient } from '../operator-dashboard/dashboard-client.js';
import { LoginStates } from '../operator-dashboard/login-state.js';
import { OperatorDashboard } from '../operator-dashboard/operator-dashboard.js';
import type { Db } from '../storage/database.js';
import { clientRepository } from '../storage/repositories/clients.js';
import { dashboardSessionRepository } from '../storage/repositories/dashboard-sessions.js';
import { userRepository } from '../storage/repositories/users.js';
import type { TokenEngine } from '../oauth/tokens/token-engine.js';
import type { RejectedSecretLimit } from '../ratelimit/rejected-secret-limit.js';

/**
 * The bundled dashboards' sign-in: the built-in dashboard client (made sure of at each sign-in), and the
 * operator sessions the operator APIs accept beside the bearer token.
 */
export function wireDashboard(ctx: {
  db: Db;
  config: Pick<SvcConfig, 'publicOrigin' | 'dashboardBase' | 'issuer'>;
  /** The dashboard client's codes and the operator sessions' revocation. */
  tokenEngine: Pick<TokenEngine, 'codes' | 'revocation'>;
  /** Unknown codes per client address, as at /token. */
  rejectedTokens: RejectedSecretLimit;
  masterKey: Buffer;
  audit: AuditLog;
  clock: Clock;
  ids: Ids;
}): OperatorDashboard {
  const { db, config, tokenEngine } = ctx;
  const clients = clientRepository(db);
  const callback = `${config.publicOrigin}${config.dashboardBase}/callback`;
  return new OperatorDashboard({
    repository: dashboardSessionRepository(db),
    dashboardClient: () => ensureDashboardClient(clients, { callback, audience: config.issuer }, ctx),
    users: userRepository(db),
    codes: tokenEngine.codes,
    countingCodes: (ipAddress, redeem) =>
      countingUnknownValues({ rejectedTokens: ctx.rejectedTokens }, undefined, ipAddress, redeem),
    revocation: tokenEngine.revocation,
    csrf: new SessionCsrf(deriveHostedKey(ctx.masterKey, 'dashboard csrf'), config.publicOrigin, 'dashboard'),
    loginStates: new LoginStates(deriveHostedKey(ctx.masterKey, 'dashboard login')),
    urls: { authorize: `${config.issuer}/authorize`, callback },
    clientId: DASHBOARD_CLIENT_ID,
    audit: ctx.audit,
    clock: ctx.clock,
    ids: ctx.ids,
  });
}

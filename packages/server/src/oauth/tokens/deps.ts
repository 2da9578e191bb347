import type { ResolvedSecuritySettings } from '@svc/contract';
import type { MembershipRepository, UserRepository } from '../../directory/repository.js';
import type { ApplicationAccess } from '../../applications/application-access.js';
import type { AuditLog } from '../../audit/audit-log.js';
import type { Clock } from '../../kernel/clock.js';
import type { Ids } from '../../kernel/ids.js';
import type { AccessTokenSessions } from './repository.js';
import type { TokenStore } from './repository.js';
import type { TokenService } from './token-service.js';

/** What the token engine (issuance, refresh, codes, validation, revocation) takes. */
export interface TokenEngineDeps {
  readonly store: TokenStore;
  /** Access-token validation's one-read session lookup and coalesced lastSeenAt write. */
  readonly accessTokenSessions: AccessTokenSessions;
  readonly users: Pick<UserRepository, 'findById'>;
  readonly memberships: Pick<MembershipRepository, 'hasActiveMembership'>;
  readonly tokens: TokenService;
  /**
   * Asked per operation: a change applies at once on the node that made it and within a few seconds on
   * the others (settings/security-settings-service.ts caches the row briefly).
   */
  readonly settings: { getResolved(): Promise<ResolvedSecuritySettings> };
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
  /** OpenID provider mode: ID tokens are minted only while it is on. */
  readonly openIdEnabled: boolean;
  /** Application access, checked again whenever a grant gives a user tokens (code, device, refresh). */
  readonly access: Pick<ApplicationAccess, 'denial'>;
}

import type { MembershipRepository, UserRepository } from '../../admin/repository.js';
import type { AuditLog } from '../../audit/audit-log.js';
import type { Clock } from '../../kernel/clock.js';
import type { Ids } from '../../kernel/ids.js';
import type { ResolvedSecuritySettings } from '../../settings/security-settings-service.js';
import type { TokenStore } from './repository.js';
import type { TokenService } from './token-service.js';

/** What the token engine (issuance, refresh, codes, validation, revocation) takes. */
export interface TokenEngineDeps {
  readonly store: TokenStore;
  readonly users: Pick<UserRepository, 'findById'>;
  readonly memberships: Pick<MembershipRepository, 'hasActiveMembership'>;
  readonly tokens: TokenService;
  /** Read per operation, so that an operator's change applies at once on every node. */
  readonly settings: { getResolved(): Promise<ResolvedSecuritySettings> };
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
  /** OpenID provider mode: ID tokens are minted only while it is on. */
  readonly openIdEnabled: boolean;
}

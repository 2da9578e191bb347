import type { AuditLog } from '../audit/audit-log.js';
import type { Clock } from '../kernel/clock.js';
import type { SecretBox } from '../kernel/crypto.js';
import type { Ids } from '../kernel/ids.js';
import { MfaService } from '../signin/methods/mfa/mfa-service.js';
import type { MfaSettingsService } from '../signin/methods/mfa/mfa-settings.js';
import type { FailureLimit } from '../ratelimit/failure-throttle.js';
import type { OrganizationPolicy } from '../signin/organization-policy.js';
import type { Db } from '../storage/database.js';
import {
  authenticatorRepository,
  mfaChallengeRepository,
  recoveryCodeRepository,
} from '../storage/repositories/mfa.js';
import { userRepository } from '../storage/repositories/users.js';

export interface WireMfaContext {
  readonly db: Db;
  /** The MFA settings and policies operators change (built once, with the admin domain). */
  readonly settings: MfaSettingsService;
  readonly organizations: Pick<OrganizationPolicy, 'options'>;
  readonly secretBox: SecretBox;
  /** The issuer name authenticator apps show. */
  readonly totpIssuer: string;
  /** The per-user limit on failed code checks. */
  readonly failures: FailureLimit;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}

/** The MFA service the sign-in engine asks (its MfaGate), over the operators' MFA settings. */
export function wireMfa(ctx: WireMfaContext): MfaService {
  const { db, audit, clock, ids, settings } = ctx;
  const users = userRepository(db);
  return new MfaService({
    settings,
    authenticators: authenticatorRepository(db),
    recoveryCodes: recoveryCodeRepository(db),
    challenges: mfaChallengeRepository(db),
    memberships: (userId) => ctx.organizations.options(userId),
    accountLabel: async (userId) => {
      const user = await users.findById(userId);
      return user?.active === true ? (user.email ?? user.displayName) : undefined;
    },
    secrets: ctx.secretBox,
    totpIssuer: ctx.totpIssuer,
    failures: ctx.failures,
    audit,
    clock,
    ids,
  });
}

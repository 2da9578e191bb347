import type { AuditLog } from '../audit/audit-log.js';
import type { Clock } from '../kernel/clock.js';
import type { SecretBox } from '../kernel/crypto.js';
import type { Ids } from '../kernel/ids.js';
import { MfaService } from '../mfa/mfa-service.js';
import { MfaSettingsService } from '../mfa/mfa-settings.js';
import type { FailureLimit } from '../ratelimit/failure-throttle.js';
import type { OrganizationPolicy } from '../signin/organization-policy.js';
import type { Db } from '../storage/database.js';
import {
  authenticatorRepository,
  mfaChallengeRepository,
  mfaPolicyRepository,
  recoveryCodeRepository,
} from '../storage/repositories/mfa.js';
import { organizationRepository } from '../storage/repositories/organizations.js';
import { userRepository } from '../storage/repositories/users.js';

export interface WireMfaContext {
  readonly db: Db;
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

/** The MFA settings and policies, and the MFA service the sign-in engine asks (its MfaGate). */
export function wireMfa(ctx: WireMfaContext): { settings: MfaSettingsService; service: MfaService } {
  const { db, audit, clock, ids } = ctx;
  const organizations = organizationRepository(db);
  const users = userRepository(db);
  const settings = new MfaSettingsService({
    store: mfaPolicyRepository(db),
    organizationExists: async (id) => (await organizations.findById(id)) !== undefined,
    audit,
    clock,
  });
  const service = new MfaService({
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
  return { settings, service };
}

import { randomBytes } from 'node:crypto';
import { wireAdmin, type AdminWiring } from '../app/wire-admin.js';
import { createAuditLog } from '../audit/audit-service.js';
import { SecretBox } from '../kernel/crypto.js';
import { randomIds } from '../kernel/ids.js';
import { resolveScimConfig } from '../config/scim.js';
import { DEFAULT_FAILURE_RULES } from '../ratelimit/failure-rules.js';
import { SecuritySettingsService } from '../settings/security-settings-service.js';
import { DEFAULT_SECURITY_SETTINGS } from '../settings/security-settings.js';
import type { Db } from '../storage/database.js';
import { auditEventsRepository } from '../storage/repositories/audit-events.js';
import { securitySettingsRepository } from '../storage/repositories/security-settings.js';
import type { FakeClock } from './fake-clock.js';
import { testHashPassword } from './test-password-hashing.js';
import {
  DEFAULT_DNS,
  DEFAULT_DOMAIN_VERIFICATION,
} from '../organizations/domains/domain-verification-config.js';

/** The SCIM part of wireAdmin's context as createSvc() builds it with the defaults. */
export const TEST_SCIM_WIRING = {
  config: resolveScimConfig(undefined, undefined, {
    publicOrigin: 'http://localhost:8080',
    dashboardBase: '/svc',
  }),
  tokenFailures: DEFAULT_FAILURE_RULES.scimTokenIp,
};

/**
 * The admin services over a migrated test database, as createSvc() wires them (the cheap test password
 * hashing, a random master key, the default security settings), for tests below the HTTP layer.
 */
export function wireTestAdmin(db: Db, clock: FakeClock): AdminWiring {
  return wireAdmin({
    db,
    clock,
    ids: randomIds,
    audit: createAuditLog({ repository: auditEventsRepository(db), clock, ids: randomIds }),
    securitySettings: new SecuritySettingsService({
      repository: securitySettingsRepository(db),
      clock,
      defaults: { ...DEFAULT_SECURITY_SETTINGS },
    }),
    hashPassword: testHashPassword,
    secretBox: new SecretBox(randomBytes(32)),
    config: {
      domainVerification: DEFAULT_DOMAIN_VERIFICATION,
      dns: DEFAULT_DNS,
      publicOrigin: 'http://localhost:8080',
      dashboardBase: '/svc',
      scopeDisplayNames: [],
      oidc: { connections: [] },
    },
    issuer: 'http://localhost:8080/svc/auth',
    scim: TEST_SCIM_WIRING,
  });
}

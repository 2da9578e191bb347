import { createAuditLog, type AuditService } from '../audit/audit-service.js';
import type { SvcConfig } from '../config/resolve.js';
import type { SecretBox } from '../kernel/crypto.js';
import { SigningKeys } from '../oauth/keys/signing-keys.js';
import type { SigningThread } from '../oauth/tokens/signing-thread.js';
import { TokenService } from '../oauth/tokens/token-service.js';
import { FailureThrottle } from '../ratelimit/failure-throttle.js';
import { RateLimiter } from '../ratelimit/rate-limiter.js';
import { SecuritySettingsService } from '../settings/security-settings-service.js';
import type { Db } from '../storage/database.js';
import { auditEventsRepository } from '../storage/repositories/audit-events.js';
import { failureCounterRepository } from '../storage/repositories/failure-counters.js';
import { rateLimitRepository } from '../storage/repositories/rate-limits.js';
import { securitySettingsRepository } from '../storage/repositories/security-settings.js';
import { signingKeyRepository } from '../storage/repositories/signing-keys.js';

/** What every capability is built on: settings, the audit log, keys and tokens, and the limits. */
export interface Foundation {
  readonly securitySettings: SecuritySettingsService;
  readonly audit: AuditService;
  readonly signingKeys: SigningKeys;
  readonly tokens: TokenService;
  /** Calls per subject and window, valid across nodes (the rules are in `config.rateLimits`). */
  readonly rateLimiter: RateLimiter;
  /** Failed checks of secrets across requests and nodes (the rules are in `config.failureLimits`). */
  readonly failureThrottle: FailureThrottle;
}

/**
 * Builds the foundation over the database: the security settings loaded, an active signing key made
 * sure of, and the keys' schedule applied once before the first request.
 */
export async function wireFoundation(ctx: {
  readonly db: Db;
  readonly config: Pick<SvcConfig, 'clock' | 'ids' | 'securityDefaults' | 'signingKeyCacheMs' | 'issuer'>;
  readonly secretBox: SecretBox;
  readonly signer: SigningThread;
}): Promise<Foundation> {
  const { db, config, secretBox, signer } = ctx;
  const { clock, ids } = config;
  const securitySettings = new SecuritySettingsService({
    repository: securitySettingsRepository(db),
    clock,
    defaults: config.securityDefaults,
  });
  await securitySettings.initialize();
  const audit = createAuditLog({ repository: auditEventsRepository(db), clock, ids });
  const signingKeys = new SigningKeys({
    repository: signingKeyRepository(db),
    secretBox,
    clock,
    settings: () => securitySettings.get(),
    cacheTtlMs: config.signingKeyCacheMs,
  });
  await signingKeys.ensureActiveKey();
  await signingKeys.maintain();
  return {
    securitySettings,
    audit,
    signingKeys,
    tokens: new TokenService({ keys: signingKeys, issuer: config.issuer, clock, ids, signer }),
    rateLimiter: new RateLimiter({ store: rateLimitRepository(db), clock }),
    failureThrottle: new FailureThrottle({ store: failureCounterRepository(db), clock }),
  };
}

import type { ClientRecord } from '../directory/repository.js';
import { wireDevice, type DeviceWiring } from '../app/wire-device.js';
import { createAuditLog } from '../audit/audit-service.js';
import { randomIds } from '../kernel/ids.js';
import type { DeviceAuthorizationOptions } from '../oauth/device/deps.js';
import type { DeviceAuthorizationStarted } from '../oauth/device/device-outcomes.js';
import { RateLimiter } from '../ratelimit/rate-limiter.js';
import { resolveRateLimitRules, type RateLimitRulesOptions } from '../ratelimit/rules.js';
import type { Dialect } from '../storage/database.js';
import { auditEventsRepository } from '../storage/repositories/audit-events.js';
import { rateLimitRepository } from '../storage/repositories/rate-limits.js';
import {
  createAuthHarness,
  HARNESS_ISSUER,
  type AuthHarness,
  type AuthHarnessOptions,
} from './auth-harness.js';

export interface DeviceHarnessOptions extends AuthHarnessOptions {
  readonly rateLimits?: RateLimitRulesOptions;
  readonly device?: Partial<DeviceAuthorizationOptions>;
}

export interface DeviceHarness extends AuthHarness, DeviceWiring {
  /** A public client that allows the device grant (override any field). */
  deviceClient(overrides?: Parameters<AuthHarness['given']['client']>[0]): Promise<ClientRecord>;
  /** Starts a request for `client` with `scope` (and a resource), from 192.0.2.1. */
  start(
    client: ClientRecord,
    scope?: string,
    resources?: readonly string[],
  ): Promise<DeviceAuthorizationStarted>;
}

/**
 * The engine harness (SQLite or PostgreSQL, fake clock) with the device flow wired over it exactly as
 * createSvc() wires it (app/wire-device.ts), with its own rate limits and lifetimes when given.
 */
export async function createDeviceHarness(
  kind: Dialect,
  options: DeviceHarnessOptions = {},
): Promise<DeviceHarness> {
  const h = await createAuthHarness(kind, options);
  let wiring: DeviceWiring;
  try {
    wiring = wireDevice({
      db: h.db,
      config: { issuer: HARNESS_ISSUER, rateLimits: resolveRateLimitRules(options.rateLimits) },
      engine: h.engine,
      securitySettings: { getResolved: () => h.auth.getResolvedSecuritySettingsAsync() },
      rateLimiter: new RateLimiter({ store: rateLimitRepository(h.db), clock: h.clock }),
      audit: createAuditLog({ repository: auditEventsRepository(h.db), clock: h.clock, ids: randomIds }),
      clock: h.clock,
      ids: randomIds,
      options: options.device,
    });
  } catch (error) {
    // Invalid options: give the database back before failing.
    await h.close();
    throw error;
  }
  return {
    ...h,
    ...wiring,
    deviceClient: async (overrides = {}) =>
      (
        await h.given.client({
          allowDeviceAuthorization: true,
          allowedScopes: ['openid', 'profile', 'email', 'offline_access'],
          ...overrides,
        })
      ).record,
    start: (client, scope = 'openid profile', resources = []) =>
      wiring.devices.start({ client, scope, resources, ipAddress: '192.0.2.1' }),
  };
}

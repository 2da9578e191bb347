import type { ClientRecord } from '../directory/repository.js';
import type { DeviceAuthorizationOptions } from '../oauth/device/deps.js';
import type { DeviceAuthorizationStarted } from '../oauth/device/device-outcomes.js';
import { DeviceAuthorizations } from '../oauth/device/device-authorizations.js';
import type { Dialect } from '../storage/database.js';
import { clientRepository } from '../storage/repositories/clients.js';
import { deviceAuthorizationRepository } from '../storage/repositories/device-authorizations.js';
import { membershipRepository } from '../storage/repositories/memberships.js';
import { userRepository } from '../storage/repositories/users.js';
import { createAuthHarness, type AuthHarness, type AuthHarnessOptions } from './auth-harness.js';

export interface DeviceHarnessOptions extends AuthHarnessOptions {
  /** Lifetimes other than the defaults: the harness then builds its own DeviceAuthorizations. */
  readonly device?: Partial<DeviceAuthorizationOptions>;
}

export interface DeviceHarness extends AuthHarness {
  /** Start, resolve, approve, deny and poll: the app's (`svc.devices`), unless `device` options were given. */
  readonly devices: DeviceAuthorizations;
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
 * The engine harness (a test Svc on SQLite or PostgreSQL, fake clock) with the app's device flow, or,
 * for `device` lifetimes createSvc() does not take, a DeviceAuthorizations of their own over the app's
 * storage, session issuer and application access.
 */
export async function createDeviceHarness(
  kind: Dialect,
  options: DeviceHarnessOptions = {},
): Promise<DeviceHarness> {
  const h = await createAuthHarness(kind, options);
  let devices: DeviceAuthorizations;
  try {
    devices = options.device === undefined ? h.svc.devices : ownDevices(h, options.device);
  } catch (error) {
    // Invalid options: give the database back before failing.
    await h.close();
    throw error;
  }
  return {
    ...h,
    devices,
    deviceClient: async (overrides = {}) =>
      (
        await h.given.client({
          allowDeviceAuthorization: true,
          allowedScopes: ['openid', 'profile', 'email', 'offline_access'],
          ...overrides,
        })
      ).record,
    start: (client, scope = 'openid profile', resources = []) =>
      devices.start({ client, scope, resources, ipAddress: '192.0.2.1' }),
  };
}

function ownDevices(h: AuthHarness, options: Partial<DeviceAuthorizationOptions>): DeviceAuthorizations {
  const { svc, db } = h;
  const clients = clientRepository(db);
  return new DeviceAuthorizations({
    store: deviceAuthorizationRepository(db),
    findClient: (clientId) => clients.findByClientId(clientId),
    users: userRepository(db),
    memberships: membershipRepository(db),
    sessions: svc.authEngine.tokens.sessions,
    access: svc.authEngine.applications.access,
    settings: svc.securitySettings,
    rateLimiter: svc.rateLimiter,
    startLimit: svc.config.rateLimits.deviceStart,
    audit: svc.audit,
    clock: h.clock,
    ids: svc.config.ids,
    issuer: svc.config.issuer,
    options,
  });
}

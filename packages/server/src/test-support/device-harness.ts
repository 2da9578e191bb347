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

export interface DeviceHarness extends AuthHarness {
  /** Start, resolve, approve, deny and poll: the app's device flow (`svc.devices`). */
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

/** The engine harness (a test Svc on SQLite or PostgreSQL, fake clock) with the app's device flow. */
export async function createDeviceHarness(
  kind: Dialect,
  options: AuthHarnessOptions = {},
): Promise<DeviceHarness> {
  const h = await createAuthHarness(kind, options);
  const { devices } = h.svc;
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

/**
 * A DeviceAuthorizations of lifetimes createSvc() does not take, over the storage, session issuer,
 * application access, settings and limits of `h`'s app, for the tests of those lifetimes.
 */
export function deviceAuthorizationsWith(
  h: AuthHarness,
  options: Partial<DeviceAuthorizationOptions>,
): DeviceAuthorizations {
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

import type { AuditLog } from '../audit/audit-log.js';
import type { SvcConfig } from '../config/resolve.js';
import type { Clock } from '../kernel/clock.js';
import type { Ids } from '../kernel/ids.js';
import type { ClientMetadataDocuments } from '../oauth/clients/metadata-documents/client-metadata-documents.js';
import type { DeviceAuthorizationOptions } from '../oauth/device/deps.js';
import { DeviceAuthorizationEndpoint } from '../oauth/device/device-authorization-endpoint.js';
import { DeviceAuthorizations } from '../oauth/device/device-authorizations.js';
import { DeviceOperations } from '../oauth/device/device-operations.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import type { Db } from '../storage/database.js';
import { clientRepository } from '../storage/repositories/clients.js';
import { deviceAuthorizationRepository } from '../storage/repositories/device-authorizations.js';
import { membershipRepository } from '../storage/repositories/memberships.js';
import { userRepository } from '../storage/repositories/users.js';
import type { SecuritySettingsService } from '../settings/security-settings-service.js';
import type { ApplicationAccess } from '../applications/application-access.js';
import type { TokenEngine } from '../oauth/tokens/token-engine.js';
import type { RejectedSecretLimit } from '../ratelimit/rejected-secret-limit.js';

export interface WireDeviceContext {
  readonly db: Db;
  readonly config: Pick<SvcConfig, 'issuer' | 'rateLimits'>;
  /** An approved device code starts a session like any sign-in, within the application's access rules. */
  readonly sessions: TokenEngine['sessions'];
  readonly access: ApplicationAccess;
  /** Rejected client secrets per client and address, as at /token. */
  readonly clientSecrets: RejectedSecretLimit;
  readonly securitySettings: Pick<SecuritySettingsService, 'getResolved'>;
  readonly rateLimiter: Pick<RateLimiter, 'consume'>;
  /** Client ID Metadata Documents (app/wire-discovery.ts); null while they are off. */
  readonly clientDocuments?: ClientMetadataDocuments | null;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
  /** The lifetimes of the codes and the polling interval (defaults 900 and 5 seconds). */
  readonly options?: Partial<DeviceAuthorizationOptions> | undefined;
}

/** The device authorization grant (RFC 8628): the service, POST /device_authorization, the in-process operations. */
export interface DeviceWiring {
  /** Start, resolve, approve, deny and poll; the /token grant polls through it. */
  readonly devices: DeviceAuthorizations;
  /** POST /device_authorization. */
  readonly endpoint: DeviceAuthorizationEndpoint;
  /** The SvcAuthService operations (StartDeviceAuthorizationAsync …). */
  readonly operations: DeviceOperations;
}

/** Builds the device flow over the database and the token engine's session issuer. */
export function wireDevice(ctx: WireDeviceContext): DeviceWiring {
  const clients = clientRepository(ctx.db);
  const findClient = (clientId: string) => clients.findByClientId(clientId);
  const devices = new DeviceAuthorizations({
    store: deviceAuthorizationRepository(ctx.db),
    findClient,
    clientDocuments: ctx.clientDocuments ?? undefined,
    users: userRepository(ctx.db),
    memberships: membershipRepository(ctx.db),
    sessions: ctx.sessions,
    access: ctx.access,
    settings: ctx.securitySettings,
    rateLimiter: ctx.rateLimiter,
    startLimit: ctx.config.rateLimits.deviceStart,
    audit: ctx.audit,
    clock: ctx.clock,
    ids: ctx.ids,
    issuer: ctx.config.issuer,
    options: ctx.options,
  });
  return {
    devices,
    endpoint: new DeviceAuthorizationEndpoint({
      findClient,
      rejectedSecrets: ctx.clientSecrets,
      devices,
      clientDocuments: ctx.clientDocuments ?? undefined,
    }),
    operations: new DeviceOperations({
      devices,
      clock: ctx.clock,
      rateLimiter: ctx.rateLimiter,
      verifyLimit: ctx.config.rateLimits.deviceVerify,
    }),
  };
}

import type { ResolvedSecuritySettings } from '@svc/contract';
import type { ClientRecord, MembershipRepository, UserRepository } from '../../directory/repository.js';
import type { ApplicationAccess } from '../../applications/application-access.js';
import type { AuditLog } from '../../audit/audit-log.js';
import type { Clock } from '../../kernel/clock.js';
import type { Ids } from '../../kernel/ids.js';
import type { RateLimiter } from '../../ratelimit/rate-limiter.js';
import type { RateLimitPolicy } from '../../ratelimit/rules.js';
import type { ClientMetadataDocuments } from '../clients/metadata-documents/client-metadata-documents.js';
import type { SessionIssuer } from '../tokens/session-issuer.js';
import type { DeviceAuthorizationStore } from './repository.js';

/** The lifetimes of the device flow; docs/reference/limits.md "Lifetimes": expires_in 900 seconds, interval 5 seconds. */
export interface DeviceAuthorizationOptions {
  /** How long the device and user codes live, in seconds. @default 900 */
  readonly lifetimeSeconds: number;
  /** The polling interval a device starts with, in seconds. @default 5 */
  readonly intervalSeconds: number;
}

export const DEFAULT_DEVICE_AUTHORIZATION_OPTIONS: DeviceAuthorizationOptions = Object.freeze({
  lifetimeSeconds: 900,
  intervalSeconds: 5,
});

/** What the device flow takes. */
export interface DeviceAuthorizationDeps {
  readonly store: DeviceAuthorizationStore;
  /** The client registered under a client_id (active or not), or undefined. */
  findClient(clientId: string): Promise<ClientRecord | undefined>;
  /** Client ID Metadata Documents, fetched for a URL client_id the host names; absent while off. */
  readonly clientDocuments?: Pick<ClientMetadataDocuments, 'admit'> | undefined;
  readonly users: Pick<UserRepository, 'findById'>;
  readonly memberships: Pick<MembershipRepository, 'hasActiveMembership'>;
  /** The token engine's session issuer: the successful poll creates a session and mints its tokens. */
  readonly sessions: Pick<SessionIssuer, 'newSession' | 'mint' | 'wantsIdToken'>;
  readonly settings: { getResolved(): Promise<ResolvedSecuritySettings> };
  readonly rateLimiter: Pick<RateLimiter, 'consume'>;
  /** `config.rateLimits.deviceStart`. */
  readonly startLimit: RateLimitPolicy;
  /** Application access: checked when a user approves, and again when the device gets its tokens. */
  readonly access: Pick<ApplicationAccess, 'denial' | 'requireUser'>;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
  /** The issuer; the verification page is `{issuer}/device`. */
  readonly issuer: string;
  readonly options?: Partial<DeviceAuthorizationOptions> | undefined;
}

import type { ClientRecord, UserRepository } from '../../admin/repository.js';
import type { AuditLog } from '../../audit/audit-log.js';
import type { InvitationBinding } from '../../invitations/invitation-binding.js';
import type { Clock } from '../../kernel/clock.js';
import type { Ids } from '../../kernel/ids.js';
import type { BrowserSessions } from '../browser-sessions.js';
import type { ConsentGrants } from '../consent-grants.js';
import type { OrganizationPolicy } from '../organization-policy.js';
import type { PasswordAuthenticator } from '../password-authenticator.js';
import type { SignInEngine } from '../sign-in-engine.js';
import type { AuthorizationCodes } from '../../oauth/tokens/authorization-codes.js';
import type { HomeRealmDiscovery } from './home-realm.js';
import type { DeviceFlowDeps } from '../methods/device/device-steps.js';
import type { HostedMfa } from '../methods/mfa/mfa-steps.js';
import type { AuthRequestStore } from './repository.js';

/** What the authorization flow is built from (wired by `app/wire-authorize.ts`). */
export interface AuthorizeFlowDeps {
  readonly requests: AuthRequestStore;
  /** The client registered under a client_id (active or not). */
  findClient(clientId: string): Promise<ClientRecord | undefined>;
  readonly users: Pick<UserRepository, 'findById'>;
  readonly signIn: Pick<SignInEngine, 'signIn' | 'selectOrganization' | 'pendingSelection'>;
  readonly organizations: Pick<OrganizationPolicy, 'options'>;
  readonly passwords: Pick<PasswordAuthenticator, 'authenticate'>;
  readonly browserSessions: Pick<BrowserSessions, 'create' | 'resolve' | 'end'>;
  readonly consents: Pick<ConsentGrants, 'findCovering' | 'record'>;
  readonly codes: Pick<AuthorizationCodes, 'issue'>;
  /** The second factor of requests in status `mfa`. */
  readonly mfa: HostedMfa;
  /** The device authorization grant's hosted verification (/device): device requests. */
  readonly device: DeviceFlowDeps;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
  /** The issuer: the `iss` of every authorization response (RFC 9207). */
  readonly issuer: string;
  /** Plain-http redirect URIs only for loopback hosts (set outside development). */
  readonly requireTlsRedirects: boolean;
  /**
   * Invitations: a request carrying an invitation token is bound to its invitation. Absent (a host that
   * composes its own service without invitations), every invitation token is unusable.
   */
  readonly invitations?: Pick<InvitationBinding, 'bind' | 'page' | 'signup' | 'join'>;
  /** @default passwordOnlyHomeRealm */
  readonly homeRealm?: HomeRealmDiscovery;
  /** @default AUTH_REQUEST_LIFETIME_MS (30 minutes) */
  readonly requestLifetimeMs?: number;
}

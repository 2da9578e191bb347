import type { ApplicationAccess } from '../../applications/application-access.js';
import type { ClientMetadataDocuments } from '../../oauth/clients/metadata-documents/client-metadata-documents.js';
import type { ClientRecord, UserRepository } from '../../directory/repository.js';
import type { AuditLog } from '../../audit/audit-log.js';
import type { Clock } from '../../kernel/clock.js';
import type { Ids } from '../../kernel/ids.js';
import type { BrowserSessions } from '../browser-sessions.js';
import type { ConsentGrants } from '../consent-grants.js';
import type { ScopeDisplayNames } from '../../oauth/scope-display-names/scope-display-names.js';
import type { OrganizationPolicy } from '../organization-policy.js';
import type { SignInEngine } from '../sign-in-engine.js';
import type { AuthorizationCodes } from '../../oauth/tokens/authorization-codes.js';
import type { AuthRequestStore } from './repository.js';

/**
 * How the engine binds a request to an invitation (the invitation method's binding implements it): a
 * request carrying an invitation token signs in, or signs up, the invited address only.
 */
export interface RequestInvitations {
  /**
   * The usable invitation behind a token presented from `address`, for this client; throws the
   * invitation's error otherwise.
   */
  bind(
    token: string,
    clientId: string,
    address: string | undefined,
  ): Promise<{ readonly id: string; readonly email: string }>;
  /** The account that proved a credential accepts the invitation, or is another account than the invited. */
  join(
    invitationId: string,
    userId: string,
    browser: { readonly ipAddress?: string | undefined },
    method: string,
  ): Promise<
    { readonly kind: 'joined'; readonly organizationId: string } | { readonly kind: 'other_account' }
  >;
}

/**
 * What the sign-in engine is built from (wired by `app/wire-authorize.ts`). Each method brings its own
 * dependencies in its registration; these are the engine's.
 */
export interface AuthorizeFlowDeps {
  readonly requests: AuthRequestStore;
  /** The client registered under a client_id (active or not). */
  findClient(clientId: string): Promise<ClientRecord | undefined>;
  /** Client ID Metadata Documents, fetched at /authorize; absent while they are off. */
  readonly clientDocuments?: Pick<ClientMetadataDocuments, 'admit'> | undefined;
  readonly users: Pick<UserRepository, 'findById'>;
  readonly signIn: Pick<SignInEngine, 'signIn' | 'selectOrganization' | 'pendingSelection'>;
  readonly organizations: Pick<OrganizationPolicy, 'options'>;
  readonly browserSessions: Pick<BrowserSessions, 'create' | 'resolve' | 'end'>;
  readonly consents: Pick<ConsentGrants, 'findCovering' | 'record'>;
  /** What consent and device approval call each scope, read on every view. */
  readonly scopeDisplay: Pick<ScopeDisplayNames, 'describe'>;
  readonly codes: Pick<AuthorizationCodes, 'issue'>;
  /** Application access, decided once the sign-in is complete and before consent or the code. */
  readonly access: Pick<ApplicationAccess, 'denial'>;
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
  readonly invitations?: RequestInvitations;
  /** @default AUTH_REQUEST_LIFETIME_MS (30 minutes) */
  readonly requestLifetimeMs?: number;
}

import type { Kysely, Transaction } from 'kysely';
import type * as accounts from './tables/accounts.js';
import type * as calendar from './tables/calendar.js';
import type * as domains from './tables/domains.js';
import type * as federation from './tables/federation.js';
import type * as scim from './tables/scim.js';
import type * as fga from './tables/fga.js';
import type * as signIn from './tables/sign-in.js';
import type * as tokens from './tables/tokens.js';

/**
 * Table types, camelCase in code (snake_case in SQL through Kysely's CamelCasePlugin). Portable column
 * choices made once: times are epoch-millisecond integers, booleans are 0/1 integers, JSON is text.
 */

export type * from './tables/accounts.js';
export type * from './tables/calendar.js';
export type * from './tables/domains.js';
export type * from './tables/federation.js';
export type * from './tables/scim.js';
export type * from './tables/fga.js';
export type * from './tables/sign-in.js';
export type * from './tables/tokens.js';

export interface Database {
  organizations: accounts.OrganizationsTable;
  users: accounts.UsersTable;
  memberships: accounts.MembershipsTable;
  clients: accounts.ClientsTable;
  applicationAccessAssignments: accounts.ApplicationAccessAssignmentsTable;
  securitySettings: accounts.SecuritySettingsTable;
  signingKeys: accounts.SigningKeysTable;
  auditEvents: accounts.AuditEventsTable;
  sessions: tokens.SessionsTable;
  refreshTokens: tokens.RefreshTokensTable;
  authorizationCodes: tokens.AuthorizationCodesTable;
  pendingAuthTokens: tokens.PendingAuthTokensTable;
  browserSessions: tokens.BrowserSessionsTable;
  consentGrants: tokens.ConsentGrantsTable;
  scopeDisplayNames: tokens.ScopeDisplayNamesTable;
  authRequests: signIn.AuthRequestsTable;
  dashboardSessions: signIn.DashboardSessionsTable;
  mfaPolicies: signIn.MfaPoliciesTable;
  mfaAuthenticators: signIn.MfaAuthenticatorsTable;
  mfaRecoveryCodes: signIn.MfaRecoveryCodesTable;
  mfaChallenges: signIn.MfaChallengesTable;
  rateLimitCounters: signIn.RateLimitCountersTable;
  failureCounters: signIn.FailureCountersTable;
  emailTemplates: accounts.EmailTemplatesTable;
  emailDeliveries: accounts.EmailDeliveriesTable;
  passwordResetTokens: accounts.PasswordResetTokensTable;
  emailVerificationTokens: accounts.EmailVerificationTokensTable;
  invitations: accounts.InvitationsTable;
  emailOtpChallenges: signIn.EmailOtpChallengesTable;
  magicLinks: signIn.MagicLinksTable;
  phoneOtpChallenges: signIn.PhoneOtpChallengesTable;
  deviceAuthorizations: tokens.DeviceAuthorizationsTable;
  sessionRevocationOperations: tokens.SessionRevocationOperationsTable;
  oidcConnections: federation.OidcConnectionsTable;
  oidcIdentities: federation.OidcIdentitiesTable;
  oidcLoginStates: federation.OidcLoginStatesTable;
  calendarConnections: calendar.CalendarConnectionsTable;
  calendarConsentStates: calendar.CalendarConsentStatesTable;
  organizationDomains: domains.OrganizationDomainsTable;
  ssoConnections: federation.SsoConnectionsTable;
  samlAuthnRequests: federation.SamlAuthnRequestsTable;
  samlUsedAssertions: federation.SamlUsedAssertionsTable;
  scimConnections: scim.ScimConnectionsTable;
  scimUsers: scim.ScimUsersTable;
  scimUserEmails: scim.ScimUserEmailsTable;
  scimGroups: scim.ScimGroupsTable;
  scimGroupMembers: scim.ScimGroupMembersTable;
  scimSyncEvents: scim.ScimSyncEventsTable;
  scimMappings: scim.ScimMappingsTable;
  fgaState: fga.FgaStateTable;
  fgaDefinitions: fga.FgaDefinitionsTable;
  fgaResources: fga.FgaResourcesTable;
  fgaSubjects: fga.FgaSubjectsTable;
  fgaGroupMembers: fga.FgaGroupMembersTable;
  fgaGrants: fga.FgaGrantsTable;
  ssoPortalLinks: federation.SsoPortalLinksTable;
  ssoPortalSessions: federation.SsoPortalSessionsTable;
  samlIdentities: federation.SamlIdentitiesTable;
  samlSignInHandles: federation.SamlSignInHandlesTable;
  samlRequestCodes: federation.SamlRequestCodesTable;
}

/** A Kysely instance over the schema, and a transaction of it. */
export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;

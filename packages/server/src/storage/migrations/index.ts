import type { Migration, MigrationProvider } from 'kysely';
import * as spine from './0001-spine.js';
import * as oauthCore from './0002-oauth-core.js';
import * as authRequests from './0003-auth-requests.js';
import * as email from './0004-email.js';
import * as rateLimits from './0005-rate-limits.js';
import * as emailOtpAndMagicLinks from './0006-email-otp-and-magic-links.js';
import * as phoneOtp from './0007-phone-otp.js';
import * as resetAndVerification from './0008-reset-and-verification.js';
import * as invitations from './0009-invitations.js';
import * as hostedPasswordless from './0010-hosted-passwordless-and-phone-accounts.js';
import * as mfa from './0011-mfa.js';
import * as deviceAuthorizations from './0012-device-authorizations.js';
import * as refreshTokenSelectors from './0013-refresh-token-selectors.js';
import * as tokenSessionsInIdOrder from './0014-token-sessions-in-id-order.js';
import * as failureCounters from './0015-failure-counters.js';
import * as postLogoutRedirectUris from './0016-post-logout-redirect-uris.js';
import * as authRequestInvitations from './0017-auth-request-invitations.js';
import * as oidcConnections from './0018-oidc-connections.js';
import * as oidcIdentities from './0019-oidc-identities.js';
import * as oidcLoginStates from './0020-oidc-login-states.js';
import * as calendarConnections from './0021-calendar-connections.js';
import * as ssoConnections from './0022-sso-connections.js';
import * as organizationDomains from './0023-organization-domains.js';
import * as ssoPortal from './0025-sso-portal.js';
import * as fga from './0026-fga.js';
import * as scim from './0027-scim.js';
import * as samlSignIns from './0028-saml-sign-ins.js';
import * as samlRequestCodes from './0029-saml-request-codes.js';
import * as scimMappings from './0030-scim-mappings.js';
import * as scimUserEmails from './0031-scim-user-emails.js';
import * as clientSecretLookup from './0032-client-secret-lookup.js';
import * as dynamicClientRegistration from './0033-dynamic-client-registration.js';
import * as clientMetadataDocuments from './0034-client-metadata-documents.js';
import * as clientFirstUse from './0035-client-first-use.js';
import * as applicationAccess from './0036-application-access.js';
import * as sessionRevocationOperations from './0037-session-revocation-operations.js';
import * as scopeDisplayNames from './0038-scope-display-names.js';
import * as dashboardSessions from './0039-dashboard-sessions.js';
import * as scimTenantLookups from './0041-scim-tenant-lookups.js';
import * as browserBoundFlows from './0042-browser-bound-flows.js';
import * as asciiExactEmailKeys from './0043-ascii-exact-email-keys.js';
import * as usersSignedInBefore from './0044-users-signed-in-before.js';
import * as consoleDirectory from './0045-console-directory.js';
import * as auditConsoleFilters from './0046-audit-console-filters.js';
import * as ssoPortalLinksCreated from './0049-sso-portal-links-created.js';
import * as oidcConnectionOwner from './0050-oidc-connection-owner.js';

/** Migrations are listed in code (not read from a folder) so that the built package and tests agree. */
const migrations: Record<string, Migration> = {
  '0001-spine': spine,
  '0002-oauth-core': oauthCore,
  '0003-auth-requests': authRequests,
  '0004-email': email,
  '0005-rate-limits': rateLimits,
  '0006-email-otp-and-magic-links': emailOtpAndMagicLinks,
  '0007-phone-otp': phoneOtp,
  '0008-reset-and-verification': resetAndVerification,
  '0009-invitations': invitations,
  '0010-hosted-passwordless-and-phone-accounts': hostedPasswordless,
  '0011-mfa': mfa,
  '0012-device-authorizations': deviceAuthorizations,
  '0013-refresh-token-selectors': refreshTokenSelectors,
  '0014-token-sessions-in-id-order': tokenSessionsInIdOrder,
  '0015-failure-counters': failureCounters,
  '0016-post-logout-redirect-uris': postLogoutRedirectUris,
  '0017-auth-request-invitations': authRequestInvitations,
  '0018-oidc-connections': oidcConnections,
  '0019-oidc-identities': oidcIdentities,
  '0020-oidc-login-states': oidcLoginStates,
  '0021-calendar-connections': calendarConnections,
  '0022-sso-connections': ssoConnections,
  '0023-organization-domains': organizationDomains,
  '0025-sso-portal': ssoPortal,
  '0026-fga': fga,
  '0027-scim': scim,
  '0028-saml-sign-ins': samlSignIns,
  '0029-saml-request-codes': samlRequestCodes,
  '0030-scim-mappings': scimMappings,
  '0031-scim-user-emails': scimUserEmails,
  '0032-client-secret-lookup': clientSecretLookup,
  '0033-dynamic-client-registration': dynamicClientRegistration,
  '0034-client-metadata-documents': clientMetadataDocuments,
  '0035-client-first-use': clientFirstUse,
  '0036-application-access': applicationAccess,
  '0037-session-revocation-operations': sessionRevocationOperations,
  '0038-scope-display-names': scopeDisplayNames,
  '0039-dashboard-sessions': dashboardSessions,
  '0041-scim-tenant-lookups': scimTenantLookups,
  '0042-browser-bound-flows': browserBoundFlows,
  '0043-ascii-exact-email-keys': asciiExactEmailKeys,
  '0044-users-signed-in-before': usersSignedInBefore,
  '0045-console-directory': consoleDirectory,
  '0046-audit-console-filters': auditConsoleFilters,
  '0049-sso-portal-links-created': ssoPortalLinksCreated,
  '0050-oidc-connection-owner': oidcConnectionOwner,
};

/** Every migration's name, in the order they apply. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(migrations);

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};

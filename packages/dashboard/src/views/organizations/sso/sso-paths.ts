import { DASHBOARD_BASE } from '../../../api/base.js';

const segment = encodeURIComponent;

/** The operator API paths of single sign-on (`/svc/admin/auth/api`). */
export const ssoPaths = {
  samlConnections: (organizationId: string) => `/organizations/${segment(organizationId)}/sso-connections`,
  samlConnection: (id: string) => `/sso-connections/${segment(id)}`,
  oidcConnections: '/oidc-connections',
  oidcConnection: (id: string) => `/oidc-connections/${segment(id)}`,
  domains: (organizationId: string) => `/organizations/${segment(organizationId)}/domains`,
  setupLinks: (organizationId: string) => `/organizations/${segment(organizationId)}/sso-portal/sessions`,
  setupLink: (id: string) => `/sso-portal/sessions/${segment(id)}`,
} as const;

/**
 * The auth base as this page's origin sees it (`{origin}/svc/auth`): the console is served at the public
 * origin (its calls are refused from any other), so this is the issuer that providers send users back to.
 */
export const AUTH_BASE_URL = `${window.location.origin}${DASHBOARD_BASE}/auth`;

/** The upstream callback every provider connection lists for hosted and headless sign-in. */
export const OIDC_CALLBACK_URL = `${AUTH_BASE_URL}/oidc/callback`;

/** A SAML connection's SP metadata document, public (and fetched here from this origin). */
export const spMetadataPath = (connectionId: string) =>
  `${DASHBOARD_BASE}/auth/saml/metadata/${segment(connectionId)}`;

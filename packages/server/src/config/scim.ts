import { DASHBOARD_SECTIONS } from '@svc/contract';
import { SvcConfigError } from '../kernel/errors.js';
import type { ScimConnectionSeed } from '../scim/connection-admin.js';
import { checkSeedToken } from '../scim/connection-seeds.js';
import type { ScimConnectionSeedOptions } from './options.js';

export interface ScimConfig {
  /** `{PublicOrigin}{basePath}`: what identity providers are configured with. */
  readonly baseUrl: string;
  /** The path the SCIM routes are mounted at, under the dashboard base (`scimBasePath`). */
  readonly basePath: string;
  readonly connections: readonly ScimConnectionSeed[];
}

export function resolveScimConfig(
  options: { connections?: ScimConnectionSeedOptions[] } | undefined,
  basePath: string | undefined,
  site: { readonly publicOrigin: string; readonly dashboardBase: string },
): ScimConfig {
  const connections = (options?.connections ?? []).map(resolveSeed);
  const ids = new Set(connections.map((seed) => seed.id));
  if (ids.size !== connections.length)
    throw new SvcConfigError('Two SCIM connection seeds have the same id.');
  const path = resolveScimBasePath(basePath, site.dashboardBase);
  return { baseUrl: `${site.publicOrigin}${path}`, basePath: path, connections };
}

/** The first path segments under the dashboard base that Svc's other surfaces and the console use. */
const TAKEN_SEGMENTS: readonly string[] = [
  'auth',
  'admin',
  'health',
  'api',
  'assets',
  'login',
  'callback',
  'logout',
  ...DASHBOARD_SECTIONS,
];

/**
 * The SCIM base path (docs/reference/scim.md "The base path"): a path under the dashboard base (the routes
 * are mounted inside Svc's plugin, behind its error mapper and body limit) whose first segment no other
 * surface or console page uses.
 */
function resolveScimBasePath(value: string | undefined, dashboardBase: string): string {
  const example = `${dashboardBase}/scim/v2`;
  const path = (value ?? example).trim().replace(/\/+$/, '');
  if (!path.startsWith(`${dashboardBase}/`) || !/^(\/[A-Za-z0-9._~-]+)+$/.test(path)) {
    throw new SvcConfigError(
      `SVC_SCIM_BASE_PATH must be a path under the dashboard base such as "${example}", got "${value ?? ''}".`,
    );
  }
  const first = path.slice(dashboardBase.length + 1).split('/')[0] ?? '';
  if (TAKEN_SEGMENTS.includes(first)) {
    throw new SvcConfigError(
      `SVC_SCIM_BASE_PATH must not lie under "${dashboardBase}/${first}", which Svc serves itself; use for example "${example}".`,
    );
  }
  return path;
}

function resolveSeed(seed: ScimConnectionSeedOptions): ScimConnectionSeed {
  const id = seed.id.trim();
  if (id === '' || id.length > 200)
    throw new SvcConfigError('A SCIM connection seed needs an id of 1 to 200 characters.');
  if (seed.token !== undefined && seed.tokenSecretName !== undefined) {
    throw new SvcConfigError(`SCIM connection seed '${id}' gives both token and tokenSecretName: give one.`);
  }
  const enabled = seed.enabled ?? true;
  if (enabled && seed.token === undefined && seed.tokenSecretName === undefined) {
    throw new SvcConfigError(
      `SCIM connection seed '${id}' is enabled but gives no token or tokenSecretName.`,
    );
  }
  return {
    id,
    organizationId: seed.organizationId,
    displayName: seed.displayName ?? 'SCIM',
    grantBoundaryResourceId: seed.grantBoundaryResourceId ?? null,
    enabled,
    token: seed.token === undefined ? null : checkSeedToken(seed.token, id),
    tokenSecretName: seed.tokenSecretName ?? null,
  };
}

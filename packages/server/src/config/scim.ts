import { SvcConfigError } from '../kernel/errors.js';
import type { ScimConnectionSeedOptions } from './options.js';

/** SPEC.md "Limits": a SCIM seed token is 32 or more characters without whitespace. */
const SEED_TOKEN_MIN_LENGTH = 32;

/** A connection seeded from code, checked; its token is read on every start (`tokenSecretName`). */
export interface ScimConnectionSeed {
  readonly id: string;
  readonly organizationId: string;
  readonly displayName: string;
  readonly grantBoundaryResourceId: string | null;
  readonly enabled: boolean;
  /** Exactly one of the two is set. */
  readonly token: string | null;
  readonly tokenSecretName: string | null;
}

export interface ScimConfig {
  /** `{PublicOrigin}{dashboardBase}/scim/v2`: what identity providers are configured with. */
  readonly baseUrl: string;
  /** The path the SCIM routes are mounted at, under the dashboard base. */
  readonly basePath: string;
  readonly connections: readonly ScimConnectionSeed[];
}

/** Checks a seed token: the rule of SPEC.md "Limits", naming the seed (never the token). */
export function checkSeedToken(token: string, seedId: string): string {
  if (token.length < SEED_TOKEN_MIN_LENGTH || /\s/.test(token)) {
    throw new SvcConfigError(
      `The token of SCIM connection seed '${seedId}' must be ${SEED_TOKEN_MIN_LENGTH} or more characters without whitespace.`,
    );
  }
  return token;
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

export function resolveScimConfig(
  options: { connections?: ScimConnectionSeedOptions[] } | undefined,
  publicOrigin: string,
  dashboardBase: string,
): ScimConfig {
  const connections = (options?.connections ?? []).map(resolveSeed);
  const ids = new Set(connections.map((seed) => seed.id));
  if (ids.size !== connections.length)
    throw new SvcConfigError('Two SCIM connection seeds have the same id.');
  const basePath = `${dashboardBase}/scim/v2`;
  return { baseUrl: `${publicOrigin}${basePath}`, basePath, connections };
}

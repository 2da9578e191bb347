import { SvcConfigError } from '../kernel/errors.js';
import type { OidcConnectionSeed, SeedSecret } from '../federation/oidc/connection-seeds.js';
import type { OidcConnectionSeedOptions } from './options.js';

const ID_PATTERN = /^[A-Za-z0-9_-]{1,200}$/;

function seedSecret(
  seedId: string,
  field: string,
  value: string | undefined,
  variable: string | undefined,
): SeedSecret {
  if (value !== undefined && variable !== undefined) {
    throw new SvcConfigError(
      `OIDC connection seed '${seedId}' gives both ${field} and ${field}Name: give one.`,
    );
  }
  if (value !== undefined) return { value };
  return variable === undefined ? null : { variable };
}

function resolveSeed(seed: OidcConnectionSeedOptions): OidcConnectionSeed {
  const { id, clientSecret, clientSecretName, applePrivateKeyPem, applePrivateKeyPemName, ...body } = seed;
  if (!ID_PATTERN.test(id)) {
    throw new SvcConfigError(
      `An OIDC connection seed needs an id of 1 to 200 letters, digits, _ and -, got "${id}".`,
    );
  }
  return {
    id,
    body,
    clientSecret: seedSecret(id, 'clientSecret', clientSecret, clientSecretName),
    applePrivateKeyPem: seedSecret(id, 'applePrivateKeyPem', applePrivateKeyPem, applePrivateKeyPemName),
  };
}

/** The seeds of `createSvc({ oidc: { connections } })`; ids are unique. */
export function resolveOidcConnectionSeeds(
  options: { connections?: OidcConnectionSeedOptions[] } | undefined,
): readonly OidcConnectionSeed[] {
  const seeds = (options?.connections ?? []).map(resolveSeed);
  if (new Set(seeds.map((seed) => seed.id)).size !== seeds.length) {
    throw new SvcConfigError('Two OIDC connection seeds have the same id.');
  }
  return seeds;
}

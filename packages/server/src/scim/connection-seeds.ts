import { SvcConfigError } from '../kernel/errors.js';
import type { Ids } from '../kernel/ids.js';
import type { ScimConnectionAdmin, ScimConnectionSeed } from './connection-admin.js';
import { newScimToken } from './token.js';

/**
 * A SCIM seed token is 32 or more characters without whitespace (docs/reference/scim.md "Seeded from code").
 */
const SEED_TOKEN_MIN_LENGTH = 32;

/** Checks a seed token against that rule, naming the seed (never the token). */
export function checkSeedToken(token: string, seedId: string): string {
  if (token.length < SEED_TOKEN_MIN_LENGTH || /\s/.test(token)) {
    throw new SvcConfigError(
      `The token of SCIM connection seed '${seedId}' must be ${SEED_TOKEN_MIN_LENGTH} or more characters without whitespace.`,
    );
  }
  return token;
}

/**
 * Writes the SCIM connections configured in code (docs/reference/scim.md "Seeded from code"), each with its token: given in code, or read by `readSecret` from the variable it names. An
 * enabled seed without its token is a configuration fault.
 */
export async function applyScimSeeds(
  admin: Pick<ScimConnectionAdmin, 'applySeed'>,
  seeds: readonly ScimConnectionSeed[],
  readSecret: (name: string) => string | undefined,
  ids: Ids,
): Promise<void> {
  for (const seed of seeds) {
    const secret = seed.tokenSecretName === null ? seed.token : (readSecret(seed.tokenSecretName) ?? null);
    if (secret === null && seed.enabled) {
      throw new SvcConfigError(
        `SCIM connection seed '${seed.id}': the secret ${seed.tokenSecretName ?? ''} is not set.`,
      );
    }
    // A disabled seed without a token gets a random one nobody knows: it must not accept requests.
    const token = secret === null ? newScimToken(ids) : checkSeedToken(secret, seed.id);
    await admin.applySeed(seed, token);
  }
}

import {
  createOidcConnectionBodySchema,
  type CreateOidcConnectionBody,
  type CreateOidcConnectionInput,
} from '@svc/contract';
import { SvcConfigError, SvcValidationError } from '../../kernel/errors.js';
import { validate } from '../../kernel/validation.js';
import type { OidcConnectionAdmin } from './connection-admin.js';

/** A secret of a seed: given in code, or the name of the environment variable that holds it. */
export type SeedSecret = { readonly value: string } | { readonly variable: string } | null;

/** An OIDC connection seeded from code, its ids and secrets checked; the rest is checked when it is written. */
export interface OidcConnectionSeed {
  readonly id: string;
  /** The connection input without its secrets. */
  readonly body: Omit<CreateOidcConnectionBody, 'clientSecret' | 'applePrivateKeyPem'>;
  readonly clientSecret: SeedSecret;
  readonly applePrivateKeyPem: SeedSecret;
}

/**
 * A seed's connection input (docs/reference/federation.md "Connections seeded from code"): its secrets
 * given in code or read by `readSecret` from the variables they name, checked with the operator API's
 * schema. A named variable that is unset or blank, or a refused field, is an `SvcConfigError` naming the
 * seed (and the variable, never a secret).
 */
export function oidcSeedInput(
  seed: OidcConnectionSeed,
  readSecret: (name: string) => string | undefined,
): CreateOidcConnectionInput {
  const secret = (value: SeedSecret, field: string): string | undefined => {
    if (value === null) return undefined;
    if ('value' in value) return value.value;
    const read = readSecret(value.variable);
    if (read === undefined || read.trim() === '') {
      throw new SvcConfigError(
        `OIDC connection seed '${seed.id}': the secret ${value.variable} (${field}) is not set.`,
      );
    }
    return read;
  };
  const body = {
    ...seed.body,
    clientSecret: secret(seed.clientSecret, 'clientSecret'),
    applePrivateKeyPem: secret(seed.applePrivateKeyPem, 'applePrivateKeyPem'),
  };
  try {
    return validate(createOidcConnectionBodySchema, body, `OIDC connection seed '${seed.id}'`);
  } catch (error) {
    if (error instanceof SvcValidationError) throw new SvcConfigError(error.message);
    throw error;
  }
}

/**
 * Writes the OIDC connections configured in code, in their order, each as its own input: the first seed
 * that cannot be honoured stops the start (what a seed may change: `OidcConnectionAdmin.applySeed`).
 */
export async function applyOidcSeeds(
  admin: Pick<OidcConnectionAdmin, 'applySeed'>,
  seeds: readonly OidcConnectionSeed[],
  readSecret: (name: string) => string | undefined,
): Promise<void> {
  for (const seed of seeds) {
    await admin.applySeed(seed.id, oidcSeedInput(seed, readSecret));
  }
}

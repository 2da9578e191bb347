import { MINUTE_MS, type Clock } from '../../kernel/clock.js';
import { openProviderChecks, sealProviderChecks } from './sealed-checks.js';
import { sha256Hex } from '../../kernel/crypto.js';
import type { SecretSealer } from './connection-secrets.js';
import type { OidcLoginStateRepository } from './login-state-repository.js';

/** How long a user has at the provider before the sign-in must start again. */
export const OIDC_LOGIN_STATE_LIFETIME_MS = 10 * MINUTE_MS;

/** A sign-in through a provider in flight: what the callback needs back to continue and to check. */
export interface OidcLoginInFlight {
  readonly connectionId: string;
  /** The authorization request it continues (null: not bound to one). */
  readonly authRequestId: string | null;
  readonly redirectUri: string;
  readonly nonce: string;
  readonly codeVerifier: string;
}

export interface OidcLoginStatesDeps {
  readonly repository: OidcLoginStateRepository;
  readonly secrets: SecretSealer;
  readonly clock: Clock;
}

/** The purpose the sealed checks are bound to, beside the state's hash. */
const LOGIN_STATE_PURPOSE = 'oidc-login-state';

/**
 * Sign-ins through a provider between the redirect and the callback. The `state` sent to the provider is
 * stored only as its SHA-256, the nonce and the PKCE verifier sealed with the master key; a state is
 * taken once and lives 10 minutes, so a replayed or forged callback finds nothing.
 */
export class OidcLoginStates {
  readonly #deps: OidcLoginStatesDeps;

  constructor(deps: OidcLoginStatesDeps) {
    this.#deps = deps;
  }

  /** Remembers a sign-in sent to the provider with `state`. */
  async begin(state: string, inFlight: OidcLoginInFlight): Promise<void> {
    const now = this.#deps.clock.now();
    const stateHash = sha256Hex(state);
    await this.#deps.repository.insert({
      stateHash,
      connectionId: inFlight.connectionId,
      authRequestId: inFlight.authRequestId,
      redirectUri: inFlight.redirectUri,
      secretsSealed: sealProviderChecks(this.#deps.secrets, LOGIN_STATE_PURPOSE, stateHash, inFlight),
      createdAt: now,
      expiresAt: now + OIDC_LOGIN_STATE_LIFETIME_MS,
    });
  }

  /** The sign-in of a callback's `state`, used up now; undefined when unknown, used or expired. */
  async take(state: string): Promise<OidcLoginInFlight | undefined> {
    const stateHash = sha256Hex(state);
    const record = await this.#deps.repository.consume(stateHash, this.#deps.clock.now());
    if (record === undefined) return undefined;
    const { nonce, codeVerifier } = openProviderChecks(
      this.#deps.secrets,
      LOGIN_STATE_PURPOSE,
      stateHash,
      record.secretsSealed,
    );
    return {
      connectionId: record.connectionId,
      authRequestId: record.authRequestId,
      redirectUri: record.redirectUri,
      nonce,
      codeVerifier,
    };
  }
}

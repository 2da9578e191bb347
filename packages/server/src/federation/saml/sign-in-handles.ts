import { MINUTE_MS, type Clock } from '../../kernel/clock.js';
import { sha256Hex } from '../../kernel/crypto.js';
import type { Ids } from '../../kernel/ids.js';
import type { SamlSignIn } from './service-provider.js';
import type { SamlSignInHandleRepository } from './sign-in-repository.js';

/** How long an accepted answer waits for the browser's GET: it follows the ACS's 303 at once. */
export const SAML_SIGN_IN_HANDLE_LIFETIME_MS = 2 * MINUTE_MS;

/** The longest handle looked up (`Ids.secret()` makes 43 characters). */
const MAX_HANDLE_LENGTH = 64;

export interface SamlSignInHandlesDeps {
  readonly repository: SamlSignInHandleRepository;
  readonly clock: Clock;
  readonly ids: Ids;
}

/**
 * Accepted SAML answers between the ACS post and the browser's next request. The IdP posts cross-site,
 * so that post carries no SameSite=Lax cookie; and the answer is too large for a URL. It is kept under a
 * one-time opaque handle (256 random bits, stored as its SHA-256), taken once within two minutes.
 */
export class SamlSignInHandles {
  readonly #deps: SamlSignInHandlesDeps;

  constructor(deps: SamlSignInHandlesDeps) {
    this.#deps = deps;
  }

  /** Keeps `signIn`; answers its handle. */
  async keep(signIn: SamlSignIn): Promise<string> {
    const handle = this.#deps.ids.secret();
    const now = this.#deps.clock.now();
    await this.#deps.repository.insert({
      handleHash: sha256Hex(handle),
      connectionId: signIn.connection.id,
      signInJson: JSON.stringify(signIn),
      createdAt: now,
      expiresAt: now + SAML_SIGN_IN_HANDLE_LIFETIME_MS,
    });
    return handle;
  }

  /** The sign-in kept under `handle`, used up now; undefined when unknown, used or expired. */
  async take(handle: string | undefined): Promise<SamlSignIn | undefined> {
    if (handle === undefined || handle === '' || handle.length > MAX_HANDLE_LENGTH) return undefined;
    const record = await this.#deps.repository.consume(sha256Hex(handle), this.#deps.clock.now());
    return record === undefined ? undefined : (JSON.parse(record.signInJson) as SamlSignIn);
  }
}

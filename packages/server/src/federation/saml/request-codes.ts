import { MINUTE_MS, type Clock } from '../../kernel/clock.js';
import { sha256Hex } from '../../kernel/crypto.js';
import type { Ids } from '../../kernel/ids.js';
import { verifyPkce } from '../../oauth/pkce.js';
import type { SamlRequestCodeRecord, SamlRequestCodeRepository } from './request-code-repository.js';

/**
 * How long a request-token code waits for its exchange: five minutes, as long as an authorization code
 * (docs/reference/federation.md).
 */
export const SAML_REQUEST_CODE_LIFETIME_MS = 5 * MINUTE_MS;

/** What a code is bound to when it is issued: its record but for what issuing adds. */
export type SamlRequestCodeGrant = Omit<SamlRequestCodeRecord, 'codeHash' | 'createdAt' | 'expiresAt'>;

/** What an exchange presents with the code. */
export interface SamlRequestCodePresentation {
  readonly code: string;
  readonly clientId: string;
  readonly redirectUri: string;
  readonly codeVerifier: string;
}

/**
 * The temporary codes of the direct SAML request-token flow (docs/reference/federation.md "SAML entry points
 * of first-party apps"): 256 random bits, stored only as their SHA-256, for five minutes, bound to the
 * client, the exact redirect URI and the PKCE challenge of the start. `redeem` checks all of it before it
 * uses the code up (as an authorization code's redemption does), so a mistaken exchange does not burn it; a
 * used, expired or unknown code, another client, another redirect URI (compared exactly, case included) or a
 * wrong verifier are one and the same refusal. The exchange is the caller's, with its rate limit.
 */
export class SamlRequestCodes {
  readonly #repository: SamlRequestCodeRepository;
  readonly #clock: Clock;
  readonly #ids: Ids;

  constructor(deps: { repository: SamlRequestCodeRepository; clock: Clock; ids: Ids }) {
    this.#repository = deps.repository;
    this.#clock = deps.clock;
    this.#ids = deps.ids;
  }

  /** Issues a code for `grant`; the code itself is returned once and never stored. */
  async issue(grant: SamlRequestCodeGrant): Promise<string> {
    const code = this.#ids.secret();
    const now = this.#clock.now();
    await this.#repository.insert({
      ...grant,
      codeHash: sha256Hex(code),
      createdAt: now,
      expiresAt: now + SAML_REQUEST_CODE_LIFETIME_MS,
    });
    return code;
  }

  /** The grant of a code presented with its bindings, used up now; undefined for any refusal. */
  async redeem(presented: SamlRequestCodePresentation): Promise<SamlRequestCodeRecord | undefined> {
    const codeHash = sha256Hex(presented.code);
    const now = this.#clock.now();
    const found = await this.#repository.findActive(codeHash, now);
    if (
      found === undefined ||
      found.clientId !== presented.clientId ||
      found.redirectUri !== presented.redirectUri ||
      !verifyPkce(presented.codeVerifier, found.codeChallenge)
    ) {
      return undefined;
    }
    // Of two concurrent exchanges that both passed the checks, exactly one takes the code.
    return this.#repository.consume(codeHash, now);
  }
}

import { MINUTE_MS, type Clock } from '../kernel/clock.js';
import { openProviderChecks, sealProviderChecks } from '../federation/oidc/sealed-checks.js';
import { sha256Hex, type SecretBox } from '../kernel/crypto.js';
import type { CalendarConsentStateRepository } from './consent-state-repository.js';

/** How long a user has at the provider before the consent must start again (as a sign-in: 0020). */
export const CALENDAR_CONSENT_LIFETIME_MS = 10 * MINUTE_MS;

/** A calendar consent in flight: who asked, where to return, and what the callback checks. */
export interface CalendarConsentInFlight {
  readonly userId: string;
  readonly clientId: string;
  readonly connectionId: string;
  readonly returnUri: string;
  readonly redirectUri: string;
  /** The calendar scopes asked for: the grant must hold them. */
  readonly scopes: readonly string[];
  readonly nonce: string;
  readonly codeVerifier: string;
  /**
   * SHA-256 hex of the id of the browser that opened the consent's link; null for a consent stored
   * before consents were bound (refused at the callback).
   */
  readonly browserBinding: string | null;
}

export interface CalendarConsentStatesDeps {
  readonly repository: CalendarConsentStateRepository;
  readonly secrets: Pick<SecretBox, 'encrypt' | 'decrypt'>;
  readonly clock: Clock;
}

/** The purpose the sealed checks are bound to, beside the state's hash. */
const CONSENT_STATE_PURPOSE = 'calendar-consent-state';

/**
 * Calendar consents between the redirect to the provider and the callback, kept like sign-ins through a
 * provider (docs/reference/federation.md "The flow"): the `state` only as its SHA-256, the
 * nonce and PKCE verifier sealed with the master key, taken once within ten minutes.
 */
export class CalendarConsentStates {
  readonly #deps: CalendarConsentStatesDeps;

  constructor(deps: CalendarConsentStatesDeps) {
    this.#deps = deps;
  }

  /** Remembers a consent sent to the provider with `state`; answers when it expires. */
  async begin(state: string, inFlight: CalendarConsentInFlight): Promise<number> {
    const now = this.#deps.clock.now();
    const stateHash = sha256Hex(state);
    const expiresAt = now + CALENDAR_CONSENT_LIFETIME_MS;
    await this.#deps.repository.insert({
      stateHash,
      userId: inFlight.userId,
      clientId: inFlight.clientId,
      connectionId: inFlight.connectionId,
      returnUri: inFlight.returnUri,
      redirectUri: inFlight.redirectUri,
      scopes: inFlight.scopes,
      secretsSealed: sealProviderChecks(this.#deps.secrets, CONSENT_STATE_PURPOSE, stateHash, inFlight),
      browserBinding: inFlight.browserBinding,
      createdAt: now,
      expiresAt,
    });
    return expiresAt;
  }

  /** The consent of a callback's `state`, used up now; undefined when unknown, used or expired. */
  async take(state: string): Promise<CalendarConsentInFlight | undefined> {
    const stateHash = sha256Hex(state);
    const record = await this.#deps.repository.consume(stateHash, this.#deps.clock.now());
    if (record === undefined) return undefined;
    const { nonce, codeVerifier } = openProviderChecks(
      this.#deps.secrets,
      CONSENT_STATE_PURPOSE,
      stateHash,
      record.secretsSealed,
    );
    return {
      userId: record.userId,
      clientId: record.clientId,
      connectionId: record.connectionId,
      returnUri: record.returnUri,
      redirectUri: record.redirectUri,
      scopes: record.scopes,
      nonce,
      codeVerifier,
      browserBinding: record.browserBinding,
    };
  }
}

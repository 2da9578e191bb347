import { MINUTE_MS, type Clock } from '../../kernel/clock.js';
import { safeEqual, sha256Hex } from '../../kernel/crypto.js';
import type { SamlAuthnRequestRepository } from './authn-request-repository.js';

/** How long a user has at the IdP before the sign-in must start again (as for OIDC providers). */
export const SAML_AUTHN_REQUEST_LIFETIME_MS = 10 * MINUTE_MS;

/** A JSON value: what a continuation may hold, so that it survives the database unchanged. */
export type JsonValue =
  string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/**
 * What the sign-in continues with once the IdP's answer is accepted (for example the authorization
 * request's id). Opaque to the SAML code: stored with the AuthnRequest and handed back by `consume`.
 */
export type SamlContinuation = { readonly [key: string]: JsonValue };

/** An AuthnRequest taken for its answer. */
export interface SamlRequestTaken {
  readonly connectionId: string;
  readonly continuation: SamlContinuation;
  /** Whether `relayState` is the RelayState sent with the request. */
  relayStateMatches(relayState: string): boolean;
}

/**
 * AuthnRequests between the redirect to the IdP and the IdP's answer. A request is remembered by the
 * SHA-256 of its ID (the answer's InResponseTo) with the hash of its RelayState, for ten minutes, and
 * taken once: an unsolicited, replayed or late answer finds nothing.
 */
export class SamlAuthnRequests {
  readonly #repository: SamlAuthnRequestRepository;
  readonly #clock: Clock;

  constructor(deps: { readonly repository: SamlAuthnRequestRepository; readonly clock: Clock }) {
    this.#repository = deps.repository;
    this.#clock = deps.clock;
  }

  /** Remembers a request sent to the IdP; answers when it expires (epoch ms). */
  async begin(
    requestId: string,
    relayState: string,
    connectionId: string,
    continuation: SamlContinuation,
  ): Promise<number> {
    const now = this.#clock.now();
    const expiresAt = now + SAML_AUTHN_REQUEST_LIFETIME_MS;
    await this.#repository.insert({
      requestIdHash: sha256Hex(requestId),
      connectionId,
      relayStateHash: sha256Hex(relayState),
      continuationJson: JSON.stringify(continuation),
      createdAt: now,
      expiresAt,
    });
    return expiresAt;
  }

  /** The request an answer's InResponseTo names, used up now; undefined when unknown, answered or expired. */
  async take(requestId: string): Promise<SamlRequestTaken | undefined> {
    const record = await this.#repository.consume(sha256Hex(requestId), this.#clock.now());
    if (record === undefined) return undefined;
    return {
      connectionId: record.connectionId,
      continuation: JSON.parse(record.continuationJson) as SamlContinuation,
      relayStateMatches: (relayState) => safeEqual(sha256Hex(relayState), record.relayStateHash),
    };
  }
}

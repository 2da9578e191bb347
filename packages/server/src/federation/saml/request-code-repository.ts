/** A temporary code of the direct SAML request-token flow. Times are epoch milliseconds. */
export interface SamlRequestCodeRecord {
  /** SHA-256 hex of the code. */
  readonly codeHash: string;
  readonly clientId: string;
  /** The redirect URI the code was sent to: the exchange must name it exactly. */
  readonly redirectUri: string;
  /** The S256 challenge of the start: the exchange's verifier must match it. */
  readonly codeChallenge: string;
  readonly userId: string;
  /** The connection's organization, which the exchange signs in to. */
  readonly organizationId: string;
  readonly connectionId: string;
  /** When the IdP's answer was accepted. */
  readonly authTime: number;
  readonly createdAt: number;
  readonly expiresAt: number;
}

/** Storage of the request-token flow's codes: looked up by hash, each used once before it expires. */
export interface SamlRequestCodeRepository {
  insert(record: SamlRequestCodeRecord): Promise<void>;
  /** The code if it is live (unused, unexpired) at `now`. */
  findActive(codeHash: string, now: number): Promise<SamlRequestCodeRecord | undefined>;
  /** Marks the code used and returns it if it is live at `now`; undefined to every other caller. */
  consume(codeHash: string, now: number): Promise<SamlRequestCodeRecord | undefined>;
}

/** A SAML identity (connection + NameID) linked to an account. Times are epoch milliseconds. */
export interface SamlIdentityRecord {
  readonly id: string;
  readonly connectionId: string;
  readonly nameId: string;
  readonly userId: string;
  /** The address the IdP last asserted. */
  readonly email: string;
  readonly createdAt: number;
  readonly lastUsedAt: number;
}

/** Storage of linked SAML identities. */
export interface SamlIdentityRepository {
  /** False when the (connection, NameID) pair is linked already (a concurrent first sign-in won). */
  insert(record: SamlIdentityRecord): Promise<boolean>;
  find(connectionId: string, nameId: string): Promise<SamlIdentityRecord | undefined>;
  /** Records a sign-in through the link: when, and the address the IdP asserted this time. */
  touch(id: string, email: string, now: number): Promise<void>;
}

/** An accepted answer kept for the browser's next request. Times are epoch milliseconds. */
export interface SamlSignInHandleRecord {
  /** SHA-256 hex of the one-time handle. */
  readonly handleHash: string;
  readonly connectionId: string;
  readonly signInJson: string;
  readonly createdAt: number;
  readonly expiresAt: number;
}

/** Storage of accepted answers: each is taken once, before it expires. */
export interface SamlSignInHandleRepository {
  insert(record: SamlSignInHandleRecord): Promise<void>;
  /** Marks the handle used and returns it if it is live at `now`; undefined to every other caller. */
  consume(handleHash: string, now: number): Promise<SamlSignInHandleRecord | undefined>;
}

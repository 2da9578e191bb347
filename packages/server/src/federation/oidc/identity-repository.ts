import type { OidcProviderType } from '@svc/contract';

/** A provider identity linked to an account. Times are epoch milliseconds. */
export interface OidcIdentityRecord {
  readonly id: string;
  readonly connectionId: string;
  /** The provider's stable subject for the user (`sub`, GitHub's numeric id). */
  readonly subject: string;
  readonly userId: string;
  /** The address the provider last asserted (null: none), and whether it asserted it verified. */
  readonly email: string | null;
  readonly emailVerified: boolean;
  readonly createdAt: number;
  readonly lastUsedAt: number;
}

/** A link as its account's list shows it: with its connection's name and provider type. */
export interface ListedOidcIdentityRecord extends OidcIdentityRecord {
  readonly connection: { readonly displayName: string; readonly providerType: OidcProviderType };
}

/** Storage of linked provider identities. */
export interface OidcIdentityRepository {
  /** False when the (connection, subject) pair is linked already (a concurrent first sign-in won). */
  insert(record: OidcIdentityRecord): Promise<boolean>;
  find(connectionId: string, subject: string): Promise<OidcIdentityRecord | undefined>;
  /** The user's links, oldest first, each with its connection (read in the same query). */
  listForUser(userId: string): Promise<ListedOidcIdentityRecord[]>;
  /** Records a sign-in through the link: when, and what the provider asserted this time. */
  touch(id: string, seen: { email: string | null; emailVerified: boolean }, now: number): Promise<void>;
  /** Removes one of the user's links; false when the user has no such link. */
  delete(userId: string, id: string): Promise<boolean>;
}

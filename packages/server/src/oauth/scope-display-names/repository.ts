/**
 * The storage of the operators' (dashboard-owned) scope display names, owned by this domain. Times are
 * epoch milliseconds. An insert whose scope already has an entry answers `false` instead of throwing, so
 * that the domain decides what a duplicate means (409) without knowing any database's error codes.
 */

export interface ScopeDisplayNameRecord {
  readonly id: string;
  /** Unique: one entry per scope. */
  readonly scope: string;
  readonly displayName: string;
  readonly description: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** What an update replaces: both texts (an entry's scope never changes). */
export type ScopeDisplayNameTexts = Pick<ScopeDisplayNameRecord, 'displayName' | 'description'>;

export interface ScopeDisplayNameRepository {
  /** Inserts the entry; false when its scope has one. */
  insertIfScopeFree(record: ScopeDisplayNameRecord): Promise<boolean>;
  /** Every entry, in no particular order. */
  list(): Promise<ScopeDisplayNameRecord[]>;
  /** The entries of these scopes (one query; none for an empty list). */
  findByScopes(scopes: readonly string[]): Promise<ScopeDisplayNameRecord[]>;
  /** Replaces the texts and sets updatedAt; undefined when there is no such entry. */
  update(id: string, texts: ScopeDisplayNameTexts, now: number): Promise<ScopeDisplayNameRecord | undefined>;
  /** Deletes the entry and answers it; undefined when there was none. */
  delete(id: string): Promise<ScopeDisplayNameRecord | undefined>;
}

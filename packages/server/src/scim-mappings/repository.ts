import type { Page, PageQuery } from '@svc/contract';

/** A stored mapping rule. Times are epoch milliseconds. */
export interface ScimMappingRecord {
  readonly id: string;
  readonly connectionId: string;
  readonly displayName: string;
  /** The group display name matched (case-insensitively), or null to match by externalId only. */
  readonly groupDisplayName: string | null;
  /** The group externalId matched (exactly), or null to match by display name only. */
  readonly groupExternalId: string | null;
  readonly roleId: string;
  readonly resourceId: string;
  readonly enabled: boolean;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** What an update writes; an omitted field keeps its value. */
export type ScimMappingChanges = Partial<
  Pick<
    ScimMappingRecord,
    'displayName' | 'groupDisplayName' | 'groupExternalId' | 'roleId' | 'resourceId' | 'enabled'
  >
>;

export interface ScimMappingRepository {
  insert(record: ScimMappingRecord): Promise<void>;
  findById(id: string): Promise<ScimMappingRecord | undefined>;
  /** The connection's rules, newest first. */
  listForConnection(connectionId: string, query: PageQuery): Promise<Page<ScimMappingRecord>>;
  /** Every enabled rule of the connection (a push evaluates them all: there are few). */
  enabledForConnection(connectionId: string): Promise<ScimMappingRecord[]>;
  /** Applies the changes and sets updatedAt; undefined when unknown. */
  update(id: string, changes: ScimMappingChanges, now: number): Promise<ScimMappingRecord | undefined>;
  /** Deletes the rule; false when unknown. */
  delete(id: string): Promise<boolean>;
}

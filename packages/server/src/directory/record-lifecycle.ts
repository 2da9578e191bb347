import type { AuditEventInput } from '../audit/audit-log.js';
import { SvcConflictError } from '../kernel/errors.js';
import { actorFields, type AdminActor } from '../audit/actor.js';
import type { DirectoryLifecycleDeps } from './deps.js';
import { recordNotFound } from './errors.js';
import type { Taken } from './repository.js';

/** The records an operator updates, deactivates and reactivates, with their names in messages. */
const RECORD_NAMES = {
  user: 'User',
  organization: 'Organization',
  membership: 'Membership',
  client: 'Client',
} as const;
export type LifecycleRecord = keyof typeof RECORD_NAMES;

/** An operator's update of one record: what it is, what changes, how to store it, whom it concerns. */
export interface RecordUpdate<R extends { readonly active: boolean }, C extends object> {
  readonly record: LifecycleRecord;
  /** The id in the route, for the 404. */
  readonly id: string;
  readonly current: R;
  /** The fields that differ from `current` (see {@link differences}); empty = nothing to do. */
  readonly changes: C;
  /** Stores the changes: the updated record, 'taken' for a unique key of another, undefined when gone. */
  write(changes: C): Promise<R | Taken | undefined>;
  /** The 409 of a taken unique key. */
  taken?(): SvcConflictError;
  /**
   * The name the audit trail gives a changed field, or null to leave it out (a key derived from
   * another field). Names only: values may be personal data or secrets, and the record holds them.
   */
  fieldName?(field: string): string | null;
  /** Who and what the events are about. */
  subject(updated: R): Pick<AuditEventInput, 'userId' | 'organizationId' | 'clientId'>;
  /** Detail every event of the change carries (a membership's id). */
  readonly data?: Readonly<Record<string, unknown>>;
  /**
   * Ends the record's sessions; called once the deactivation is stored. Answers how many ended, by kind
   * (`{ sessionsRevoked }`, and for a user `browserSessionsEnded`), for the deactivation's event.
   */
  endSessions(updated: R): Promise<Readonly<Record<string, number>>>;
}

/**
 * The entries of `proposed` whose value differs from the record's (lists compared item by item; an
 * undefined entry is an omitted field), so that an update which changes nothing writes nothing and
 * records nothing.
 */
export function differences<P extends object>(
  record: Readonly<Record<keyof P, unknown>>,
  proposed: P,
): { [K in keyof P]?: Exclude<P[K], undefined> } {
  const changed: { [K in keyof P]?: Exclude<P[K], undefined> } = {};
  for (const key of Object.keys(proposed) as (keyof P)[]) {
    const value = proposed[key];
    if (value !== undefined && JSON.stringify(value) !== JSON.stringify(record[key])) {
      changed[key] = value as Exclude<P[keyof P], undefined>;
    }
  }
  return changed;
}

/**
 * Stores an update and what follows it (docs/reference/organizations.md "Deactivation";
 * docs/reference/events.md): `admin.<record>.updated` naming the changed fields; when `active` went from true
 * to false the record's sessions end (after the flag is stored, so that a sign-in finishing meanwhile is
 * caught too; refresh and validation read the flag on every call besides) and `admin.<record>.deactivated`
 * records how many ended; from false to true `admin.<record>.reactivated`, which restores sign-in only: the
 * revoked sessions stay revoked. Answers the record as it is now.
 */
export async function applyRecordUpdate<R extends { readonly active: boolean }, C extends object>(
  deps: Pick<DirectoryLifecycleDeps, 'audit'>,
  update: RecordUpdate<R, C>,
  actor: AdminActor | undefined,
): Promise<R> {
  const { current, changes } = update;
  if (Object.keys(changes).length === 0) return current;
  const updated = await update.write(changes);
  if (updated === undefined) throw recordNotFound(RECORD_NAMES[update.record], update.id);
  if (updated === 'taken') throw update.taken?.() ?? new SvcConflictError('A unique value is taken.');

  const event = (suffix: string, data: Readonly<Record<string, unknown>>): AuditEventInput => ({
    kind: `admin.${update.record}.${suffix}`,
    ...actorFields(actor),
    ...update.subject(updated),
    data: { ...update.data, ...data },
  });
  const changed = Object.keys(changes)
    .filter((field) => field !== 'active')
    .map((field) => (update.fieldName === undefined ? field : update.fieldName(field)))
    .filter((field) => field !== null);
  if (changed.length > 0) await deps.audit.record(event('updated', { changed }));
  if (current.active && !updated.active) {
    await deps.audit.record(event('deactivated', await update.endSessions(updated)));
  } else if (!current.active && updated.active) {
    await deps.audit.record(event('reactivated', {}));
  }
  return updated;
}

/** The current record, or the 404 naming it. */
export async function existingRecord<R>(
  record: LifecycleRecord,
  id: string,
  find: (id: string) => Promise<R | undefined>,
): Promise<R> {
  const found = await find(id);
  if (found === undefined) throw recordNotFound(RECORD_NAMES[record], id);
  return found;
}

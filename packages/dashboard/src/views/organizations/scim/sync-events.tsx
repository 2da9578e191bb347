import { svcScimSyncEventSchema, type SvcScimConnection, type SvcScimSyncEvent } from '@svc/contract';
import { useList } from '../../../data/queries.js';
import { Time } from '../../../ui/format.js';
import { EmptyState, Panel } from '../../../ui/page.js';
import { DataTable, type TableColumn } from '../../../ui/table.js';
import { scimPaths } from './scim-paths.js';

/** `scim.user.created` → "user created". */
const kindWords = (kind: string) => kind.replace(/^scim\./, '').replace(/[._]/g, ' ');

const COLUMNS: readonly TableColumn<SvcScimSyncEvent>[] = [
  { id: 'when', label: 'When', cell: (event) => <Time iso={event.occurredAt} />, isRowHeader: true },
  { id: 'kind', label: 'What', cell: (event) => kindWords(event.kind) },
  {
    id: 'outcome',
    label: 'Outcome',
    cell: (event) => (
      <span className={event.outcome === 'succeeded' ? 'badge badge-on' : 'badge badge-danger'}>
        {event.outcome === 'succeeded' ? 'Done' : 'Refused'}
      </span>
    ),
  },
  {
    id: 'record',
    label: 'Record',
    cell: (event) =>
      event.resourceId === null ? (
        '—'
      ) : (
        <code className="id">{`${event.resourceType ?? ''} ${event.resourceId}`.trim()}</code>
      ),
  },
  { id: 'message', label: 'Why', cell: (event) => event.message ?? '—' },
];

/** What the identity provider pushed and what came of it, newest first: created, changed or refused. */
export function SyncEventsPanel(props: { readonly connection: SvcScimConnection }) {
  const list = useList('auth', scimPaths.events(props.connection.id), svcScimSyncEventSchema);
  return (
    <Panel title="Sync events">
      <DataTable
        label="Sync events"
        columns={COLUMNS}
        list={list}
        rowKey={(event) => event.id}
        empty={
          <EmptyState title="No sync events yet.">
            They appear once the identity provider sends its first SCIM request with the token.
          </EmptyState>
        }
      />
    </Panel>
  );
}

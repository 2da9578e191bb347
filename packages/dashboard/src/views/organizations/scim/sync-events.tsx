import { svcScimSyncEventSchema, type SvcScimConnection, type SvcScimSyncEvent } from '@svc/contract';
import { useState } from 'react';
import { useList } from '../../../data/queries.js';
import { Button } from '../../../ui/button.js';
import { SelectField } from '../../../ui/fields.js';
import { Time } from '../../../ui/format.js';
import { EmptyState, Panel } from '../../../ui/page.js';
import { DataTable, type TableColumn } from '../../../ui/table.js';
import { scimPaths } from './scim-paths.js';

/** `scim.user.created` → "user created". */
const kindWords = (kind: string) => kind.replace(/^scim\./, '').replace(/[._]/g, ' ');

type Outcome = SvcScimSyncEvent['outcome'];

/** The words of an outcome, in its badge and in the filter. */
const OUTCOME_LABELS: Readonly<Record<Outcome, string>> = { succeeded: 'Done', failed: 'Refused' };

const COLUMNS: readonly TableColumn<SvcScimSyncEvent>[] = [
  { id: 'when', label: 'When', cell: (event) => <Time iso={event.occurredAt} />, isRowHeader: true },
  { id: 'kind', label: 'What', cell: (event) => kindWords(event.kind) },
  {
    id: 'outcome',
    label: 'Outcome',
    cell: (event) => (
      <span className={event.outcome === 'succeeded' ? 'badge badge-on' : 'badge badge-danger'}>
        {OUTCOME_LABELS[event.outcome]}
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

/**
 * What the identity provider pushed and what came of it, newest first: created, changed or refused.
 * Refused alone answers "why did this user not arrive?"; Refresh shows what came in since the page opened.
 */
export function SyncEventsPanel(props: { readonly connection: SvcScimConnection }) {
  const [outcome, setOutcome] = useState<Outcome | 'any'>('any');
  const list = useList(
    'auth',
    scimPaths.events(props.connection.id),
    svcScimSyncEventSchema,
    outcome === 'any' ? {} : { outcome },
  );
  return (
    <Panel
      title="Sync events"
      actions={
        <Button onPress={list.retry} isDisabled={list.isPending}>
          Refresh
        </Button>
      }
    >
      <div className="filters">
        <SelectField<Outcome | 'any'>
          label="Outcome"
          field={{ name: 'outcome', value: outcome, onChange: setOutcome, errorMessage: undefined }}
          choices={[
            { id: 'any', label: 'Any' },
            { id: 'succeeded', label: OUTCOME_LABELS.succeeded },
            { id: 'failed', label: OUTCOME_LABELS.failed },
          ]}
        />
      </div>
      <DataTable
        label="Sync events"
        columns={COLUMNS}
        list={list}
        rowKey={(event) => event.id}
        empty={
          outcome === 'any' ? (
            <EmptyState title="No sync events yet.">
              They appear once the identity provider sends its first SCIM request with the token.
            </EmptyState>
          ) : (
            <EmptyState title={`No ${outcome === 'failed' ? 'refused' : 'completed'} sync events.`}>
              Choose another outcome to see the rest.
            </EmptyState>
          )
        }
      />
    </Panel>
  );
}

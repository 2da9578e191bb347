import { auditEventSchema, type AuditEvent } from '@svc/contract';
import { getRouteApi } from '@tanstack/react-router';
import { apiUrl } from '../../api/client.js';
import { useList } from '../../data/queries.js';
import { Time } from '../../ui/format.js';
import { EmptyState, Page } from '../../ui/page.js';
import { DataTable, type TableColumn } from '../../ui/table.js';
import { AuditFilters } from './audit-filters.js';
import { isFiltered } from './audit-search.js';

const route = getRouteApi('/audit');

/** An id cut to the column's width (the whole id on hover, and to screen readers); a dash for none. */
function ShortId(props: { readonly value: string | null }) {
  if (props.value === null) return <span className="muted">—</span>;
  return (
    <code className="id id-short" title={props.value}>
      {props.value}
    </code>
  );
}

const COLUMNS: readonly TableColumn<AuditEvent>[] = [
  {
    id: 'time',
    label: 'Time',
    cell: (event) => (
      <span className="nowrap">
        <Time iso={event.occurredAt} />
      </span>
    ),
  },
  { id: 'kind', label: 'Kind', cell: (event) => <code>{event.kind}</code>, isRowHeader: true },
  {
    id: 'actor',
    label: 'Actor',
    cell: (event) =>
      event.actorType === null ? (
        <span className="muted">—</span>
      ) : (
        <span>
          {event.actorType} {event.actorId !== null && <ShortId value={event.actorId} />}
        </span>
      ),
  },
  { id: 'subject', label: 'Subject', cell: (event) => <ShortId value={event.subjectId} /> },
  {
    id: 'context',
    label: 'Context',
    cell: (event) => <EventContext event={event} />,
  },
];

/** The user, organization and application an event names, one line each, only those it names. */
function EventContext(props: { readonly event: AuditEvent }) {
  const { userId, organizationId, clientId } = props.event;
  const named = [
    ['User', userId],
    ['Organization', organizationId],
    ['Application', clientId],
  ].filter((entry): entry is [string, string] => entry[1] !== null);
  if (named.length === 0) return <span className="muted">—</span>;
  return (
    <span className="stacked">
      {named.map(([label, id]) => (
        <span key={label}>
          <span className="muted">{label} </span>
          <ShortId value={id} />
        </span>
      ))}
    </span>
  );
}

/** The audit stream, newest first, filtered by the link; each event opens its record. */
export function AuditPage() {
  const search = route.useSearch();
  const list = useList('audit', '/events', auditEventSchema, search);
  const filtered = isFiltered(search);
  return (
    <Page
      title="Audit"
      description="Everything Svc recorded: sign-ins, refusals and every operator change, newest first."
      actions={
        // A download the browser makes itself (the server names the file), not a page of the console.
        <a className="button button-secondary" href={apiUrl('audit', '/events/export', search)} download>
          Export as JSON lines
        </a>
      }
    >
      <AuditFilters key={JSON.stringify(search)} search={search} />
      <DataTable
        label="Audit events"
        columns={COLUMNS}
        list={list}
        rowKey={(event) => event.id}
        rowHref={(event) => `/audit/${encodeURIComponent(event.id)}`}
        empty={
          <EmptyState title={filtered ? 'No event matches these filters.' : 'No events yet.'}>
            {filtered
              ? 'Widen the time range or clear a filter.'
              : 'Events appear here as people sign in and operators make changes.'}
          </EmptyState>
        }
      />
    </Page>
  );
}

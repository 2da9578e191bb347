import { auditEventSchema, type AuditEvent } from '@svc/contract';
import { getRouteApi } from '@tanstack/react-router';
import { apiUrl } from '../../api/client.js';
import { useList } from '../../data/queries.js';
import { Id, Time } from '../../ui/format.js';
import { EmptyState, Page } from '../../ui/page.js';
import { DataTable, type TableColumn } from '../../ui/table.js';
import { AuditFilters } from './audit-filters.js';
import { isFiltered } from './audit-search.js';

const route = getRouteApi('/audit');

const idOrDash = (value: string | null) =>
  value === null ? <span className="muted">—</span> : <Id value={value} />;

const COLUMNS: readonly TableColumn<AuditEvent>[] = [
  { id: 'time', label: 'Time', cell: (event) => <Time iso={event.occurredAt} /> },
  { id: 'kind', label: 'Kind', cell: (event) => <code>{event.kind}</code>, isRowHeader: true },
  {
    id: 'actor',
    label: 'Actor',
    cell: (event) =>
      event.actorType === null ? (
        <span className="muted">—</span>
      ) : (
        <span>
          {event.actorType} {event.actorId !== null && <Id value={event.actorId} />}
        </span>
      ),
  },
  { id: 'subject', label: 'Subject', cell: (event) => idOrDash(event.subjectId) },
  { id: 'user', label: 'User', cell: (event) => idOrDash(event.userId) },
  { id: 'organization', label: 'Organization', cell: (event) => idOrDash(event.organizationId) },
  { id: 'client', label: 'Application', cell: (event) => idOrDash(event.clientId) },
];

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

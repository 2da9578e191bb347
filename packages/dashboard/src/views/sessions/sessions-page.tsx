import { svcSessionSchema, type SvcSession } from '@svc/contract';
import { getRouteApi } from '@tanstack/react-router';
import { useList } from '../../data/queries.js';
import { Age, Id } from '../../ui/format.js';
import { EmptyState, Page } from '../../ui/page.js';
import { DataTable, type TableColumn } from '../../ui/table.js';
import { activeOf } from '../list-search.js';
import { BulkRevocation, type RevocationStart } from './bulk-revocation.js';
import { RevokeSession } from './revoke-session.js';
import { SessionFilters, useSessionFilterLabels } from './session-filters.js';
import { readableUserAgent } from './user-agent.js';

const route = getRouteApi('/sessions');

function SessionStatus(props: { readonly session: SvcSession }) {
  const { session } = props;
  if (session.active) return <span className="badge badge-on">Active</span>;
  return (
    <span className="badge" title={session.revokedReason ?? undefined}>
      {session.revokedAt === null ? 'Expired' : 'Revoked'}
    </span>
  );
}

function SessionUser(props: { readonly session: SvcSession }) {
  const { user } = props.session;
  return (
    <span className="stacked">
      {user.displayName}
      {user.email !== null && <span className="muted">{user.email}</span>}
    </span>
  );
}

const COLUMNS: readonly TableColumn<SvcSession>[] = [
  { id: 'user', label: 'User', cell: (session) => <SessionUser session={session} />, isRowHeader: true },
  {
    id: 'client',
    label: 'Application',
    cell: (session) => session.client.name ?? <Id value={session.client.clientId} />,
  },
  {
    id: 'device',
    label: 'Device',
    cell: (session) => (
      <span title={session.userAgent ?? undefined}>{readableUserAgent(session.userAgent)}</span>
    ),
  },
  {
    id: 'address',
    label: 'Address',
    cell: (session) => session.ipAddress ?? <span className="muted">—</span>,
  },
  { id: 'created', label: 'Started', cell: (session) => <Age iso={session.createdAt} /> },
  { id: 'seen', label: 'Last seen', cell: (session) => <Age iso={session.lastSeenAt} /> },
  { id: 'status', label: 'Status', cell: (session) => <SessionStatus session={session} /> },
  { id: 'actions', label: 'Actions', cell: (session) => <RevokeSession session={session} /> },
];

export function SessionsPage() {
  const search = route.useSearch();
  const labels = useSessionFilterLabels();
  const list = useList('auth', '/sessions', svcSessionSchema, {
    email: search.email,
    organizationId: search.organizationId,
    clientId: search.clientId,
    active: activeOf(search.status),
  });
  const filtered = Object.values(search).some((value) => value !== undefined);
  // A bulk revocation starts from the organization or application the list is narrowed to.
  const start: RevocationStart =
    labels.organization !== null
      ? { scope: 'organization', picked: labels.organization }
      : labels.client !== null
        ? { scope: 'client', picked: labels.client }
        : { scope: 'user', picked: null };
  return (
    <Page
      title="Sessions"
      description="Signed-in sessions of every application, newest first."
      actions={<BulkRevocation start={start} />}
    >
      <SessionFilters />
      <DataTable
        label="Sessions"
        columns={COLUMNS}
        list={list}
        rowKey={(session) => session.id}
        empty={
          <EmptyState title={filtered ? 'No session matches these filters.' : 'No sessions yet.'}>
            {filtered
              ? 'Clear a filter, or check the address: it must be the whole address.'
              : 'A session starts when a user signs in to an application.'}
          </EmptyState>
        }
      />
    </Page>
  );
}

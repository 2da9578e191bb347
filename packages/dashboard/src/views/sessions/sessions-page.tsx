import { svcSessionSchema, type SvcSession } from '@svc/contract';
import { useList } from '../../data/queries.js';
import { Age, Id } from '../../ui/format.js';
import { EmptyState, Page } from '../../ui/page.js';
import { DataTable, type TableColumn } from '../../ui/table.js';
import { RevokeSession } from './revoke-session.js';

export function SessionStatus(props: { readonly session: SvcSession }) {
  const { session } = props;
  if (session.active) return <span className="badge badge-on">Active</span>;
  return (
    <span className="badge" title={session.revokedReason ?? undefined}>
      {session.revokedAt === null ? 'Expired' : 'Revoked'}
    </span>
  );
}

const COLUMNS: readonly TableColumn<SvcSession>[] = [
  { id: 'user', label: 'User', cell: (session) => <Id value={session.userId} />, isRowHeader: true },
  { id: 'client', label: 'Application', cell: (session) => <Id value={session.clientId} /> },
  { id: 'created', label: 'Started', cell: (session) => <Age iso={session.createdAt} /> },
  { id: 'seen', label: 'Last seen', cell: (session) => <Age iso={session.lastSeenAt} /> },
  { id: 'status', label: 'Status', cell: (session) => <SessionStatus session={session} /> },
  { id: 'actions', label: 'Actions', cell: (session) => <RevokeSession session={session} /> },
];

export function SessionsPage() {
  const list = useList('auth', '/sessions', svcSessionSchema);
  return (
    <Page title="Sessions" description="Signed-in sessions of every application, newest first.">
      <DataTable
        label="Sessions"
        columns={COLUMNS}
        list={list}
        rowKey={(session) => session.id}
        empty={
          <EmptyState title="No sessions yet.">
            A session starts when a user signs in to an application.
          </EmptyState>
        }
      />
    </Page>
  );
}

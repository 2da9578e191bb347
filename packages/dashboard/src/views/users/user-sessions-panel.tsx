import { svcSessionSchema, type SvcSession, type SvcUser } from '@svc/contract';
import { Link } from '@tanstack/react-router';
import { useList } from '../../data/queries.js';
import { Age, Id } from '../../ui/format.js';
import { EmptyState, Panel } from '../../ui/page.js';
import { DataTable, type TableColumn } from '../../ui/table.js';
import { RevokeSession } from '../sessions/revoke-session.js';
import { SessionStatus } from '../sessions/sessions-page.js';

const COLUMNS: readonly TableColumn<SvcSession>[] = [
  {
    id: 'client',
    label: 'Application',
    cell: (session) => (
      <>
        {session.client.name ?? <Id value={session.client.clientId} />}
        <span className="cell-detail muted">
          Signed in with {session.authenticationMethods.join(', ') || '—'}
        </span>
      </>
    ),
    isRowHeader: true,
  },
  {
    id: 'organization',
    label: 'Organization',
    cell: (session) =>
      session.organizationId === null ? (
        '—'
      ) : (
        <Link to="/organizations/$organizationId" params={{ organizationId: session.organizationId }}>
          <Id value={session.organizationId} />
        </Link>
      ),
  },
  {
    id: 'device',
    label: 'Device',
    cell: (session) => (
      <>
        <span className="user-agent" title={session.userAgent ?? undefined}>
          {session.userAgent ?? 'Unknown device'}
        </span>
        {session.ipAddress !== null && <span className="cell-detail muted">{session.ipAddress}</span>}
      </>
    ),
  },
  { id: 'created', label: 'Started', cell: (session) => <Age iso={session.createdAt} /> },
  { id: 'seen', label: 'Last seen', cell: (session) => <Age iso={session.lastSeenAt} /> },
  { id: 'status', label: 'Status', cell: (session) => <SessionStatus session={session} /> },
  { id: 'actions', label: 'Actions', cell: (session) => <RevokeSession session={session} /> },
];

/** The user's token sessions, newest first, each revocable behind a preview of what it ends. */
export function UserSessionsPanel(props: { readonly user: SvcUser }) {
  const list = useList('auth', '/sessions', svcSessionSchema, { userId: props.user.id });
  return (
    <Panel title="Sessions">
      <DataTable
        label="Sessions"
        columns={COLUMNS}
        list={list}
        rowKey={(session) => session.id}
        empty={
          <EmptyState title="No sessions.">
            A session starts when the user signs in to an application.
          </EmptyState>
        }
      />
    </Panel>
  );
}

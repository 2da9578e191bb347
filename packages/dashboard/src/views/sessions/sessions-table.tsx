import type { SvcSession } from '@svc/contract';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { ListState } from '../../data/queries.js';
import { Age, Id } from '../../ui/format.js';
import { DataTable, type TableColumn } from '../../ui/table.js';
import { RevokeSession } from './revoke-session.js';
import { signInMethodWords } from './sign-in-methods.js';
import { readableUserAgent } from './user-agent.js';

export function SessionStatus(props: { readonly session: SvcSession }) {
  const { session } = props;
  if (session.active) return <span className="badge badge-on">Active</span>;
  return (
    <span className="badge" title={session.revokedReason ?? undefined}>
      {session.revokedAt === null ? 'Expired' : 'Revoked'}
    </span>
  );
}

const USER: TableColumn<SvcSession> = {
  id: 'user',
  label: 'User',
  isRowHeader: true,
  cell: ({ user }) => (
    <span className="stacked">
      {user.displayName}
      {user.email !== null && <span className="muted">{user.email}</span>}
    </span>
  ),
};

/** The columns after the user: what was signed in to, where from, when, and the revocation. */
const SESSION_COLUMNS: readonly TableColumn<SvcSession>[] = [
  {
    id: 'client',
    label: 'Application',
    cell: (session) => (
      <>
        {session.client.name ?? <Id value={session.client.clientId} />}
        <span className="cell-detail muted">
          Signed in with {signInMethodWords(session.authenticationMethods)}
        </span>
      </>
    ),
  },
  {
    id: 'organization',
    label: 'Organization',
    cell: ({ organization }) =>
      organization === null ? (
        <span className="muted">—</span>
      ) : (
        <Link to="/organizations/$organizationId" params={{ organizationId: organization.id }}>
          {organization.name}
        </Link>
      ),
  },
  {
    id: 'device',
    label: 'Device',
    cell: (session) => (
      <>
        <span title={session.userAgent ?? undefined}>{readableUserAgent(session.userAgent)}</span>
        {session.ipAddress !== null && <span className="cell-detail muted">{session.ipAddress}</span>}
      </>
    ),
  },
  { id: 'created', label: 'Started', cell: (session) => <Age iso={session.createdAt} /> },
  { id: 'seen', label: 'Last seen', cell: (session) => <Age iso={session.lastSeenAt} /> },
  { id: 'status', label: 'Status', cell: (session) => <SessionStatus session={session} /> },
  { id: 'actions', label: 'Actions', cell: (session) => <RevokeSession session={session} /> },
];

const WITH_USER = [USER, ...SESSION_COLUMNS];
// On a user's own page the application names each row.
const OF_ONE_USER = SESSION_COLUMNS.map((column, index) =>
  index === 0 ? { ...column, isRowHeader: true } : column,
);

/** Token sessions, newest first, each revocable behind a preview of what it ends. */
export function SessionsTable(props: {
  readonly list: ListState<SvcSession>;
  /** Left out where every session is one user's. */
  readonly showUser: boolean;
  readonly empty: ReactNode;
}) {
  return (
    <DataTable
      label="Sessions"
      columns={props.showUser ? WITH_USER : OF_ONE_USER}
      list={props.list}
      rowKey={(session) => session.id}
      empty={props.empty}
    />
  );
}

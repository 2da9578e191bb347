import {
  svcCalendarConnectionSchema,
  svcCalendarStatusSchema,
  svcUserSchema,
  type CalendarConnectionStatus,
  type SvcCalendarConnection,
} from '@svc/contract';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { apiSend } from '../../api/client.js';
import { useAction, useList, useRecord } from '../../data/queries.js';
import { ConfirmButton } from '../../ui/dialog.js';
import { Time } from '../../ui/format.js';
import { EmptyState, Loading, Page, Panel } from '../../ui/page.js';
import { DataTable, type TableColumn } from '../../ui/table.js';
import { UserPicker } from '../pickers.js';

const route = getRouteApi('/calendar');

const STATUS_LABELS: Readonly<Record<CalendarConnectionStatus, string>> = {
  active: 'Active',
  reauthorization_required: 'Needs the user again',
  revoked: 'Revoked',
};

function Revoke(props: { readonly connection: SvcCalendarConnection }) {
  const { connection } = props;
  const revoke = useAction({
    surface: 'calendar',
    run: () =>
      apiSend(
        'POST',
        'calendar',
        `/connections/${encodeURIComponent(connection.id)}/revoke`,
        undefined,
        svcCalendarConnectionSchema,
      ),
    refresh: ['/connections'],
    success: 'Revoked the calendar connection.',
    quiet: true,
  });
  if (connection.status === 'revoked') return null;
  const account = connection.accountEmail ?? `the ${connection.providerType} account`;
  return (
    <ConfirmButton
      label="Revoke"
      title={`Revoke the calendar connection of ${account}?`}
      tone="danger"
      run={() => revoke.mutateAsync(undefined)}
    >
      <p>
        Svc revokes its tokens at {connection.providerType} and forgets them: the app can no longer read or
        write this calendar until the user connects it again.
      </p>
    </ConfirmButton>
  );
}

const COLUMNS: readonly TableColumn<SvcCalendarConnection>[] = [
  {
    id: 'account',
    label: 'Account',
    cell: (connection) => connection.accountEmail ?? '—',
    isRowHeader: true,
  },
  {
    id: 'user',
    label: 'User',
    cell: (connection) => (
      <Link to="/users/$userId" params={{ userId: connection.userId }}>
        <code className="id">{connection.userId}</code>
      </Link>
    ),
  },
  { id: 'provider', label: 'Provider', cell: (connection) => connection.providerType },
  { id: 'scopes', label: 'Scopes', cell: (connection) => connection.scopes.join(' ') },
  {
    id: 'status',
    label: 'State',
    cell: (connection) => (
      <span className={connection.status === 'active' ? 'badge badge-on' : 'badge'}>
        {STATUS_LABELS[connection.status]}
        {connection.status === 'active' && !connection.offlineAccess && ', no refresh token'}
      </span>
    ),
  },
  {
    id: 'refreshed',
    label: 'Last refreshed',
    cell: (connection) => <Time iso={connection.lastRefreshedAt} />,
  },
  { id: 'created', label: 'Connected', cell: (connection) => <Time iso={connection.createdAt} /> },
  { id: 'actions', label: 'Actions', cell: (connection) => <Revoke connection={connection} /> },
];

function Connections(props: { readonly userId: string | undefined }) {
  const navigate = useNavigate({ from: '/calendar' });
  const user = useRecord(
    'auth',
    `/users/${encodeURIComponent(props.userId ?? '')}`,
    svcUserSchema,
    undefined,
    {
      enabled: props.userId !== undefined,
    },
  );
  const list = useList('calendar', '/connections', svcCalendarConnectionSchema, { userId: props.userId });
  return (
    <Panel title="Calendar connections">
      <UserPicker
        label="User"
        value={
          props.userId === undefined
            ? null
            : { id: props.userId, label: user.data?.displayName ?? props.userId }
        }
        onChange={(picked) => void navigate({ search: { userId: picked?.id } })}
        description="Only this user's connections; clear it for everyone's."
      />
      <DataTable
        label="Calendar connections"
        columns={COLUMNS}
        list={list}
        rowKey={(connection) => connection.id}
        empty={
          <EmptyState title="No calendar connections.">
            A connection appears when a user lets an app reach their Google or Microsoft calendar.
          </EmptyState>
        }
      />
    </Panel>
  );
}

/** The users' calendar connections: the account, the scopes granted and the state; revoke. */
export function CalendarPage() {
  const search = route.useSearch();
  const status = useRecord('auth', '/calendar/status', svcCalendarStatusSchema);
  return (
    <Page
      title="Calendar"
      description="The calendars users connected to apps through Svc, whose tokens Svc keeps for them."
    >
      {status.data === undefined ? (
        <Loading error={status.error} retry={() => void status.refetch()} />
      ) : status.data.enabled ? (
        <Connections userId={search.userId} />
      ) : (
        <Panel title="Calendar connections">
          <EmptyState title="Calendar connections are off.">
            This server runs with SVC_CALENDAR_ENABLED=false (calendar.enabled: false): users cannot connect a
            calendar and there are none to manage.
          </EmptyState>
        </Panel>
      )}
    </Page>
  );
}

import { svcUserSchema, type SvcUser } from '@svc/contract';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useList } from '../../data/queries.js';
import { Badge, Time } from '../../ui/format.js';
import { EmptyState, Page } from '../../ui/page.js';
import { SearchBox } from '../../ui/search.js';
import { DataTable, type TableColumn } from '../../ui/table.js';
import { activeOf } from '../list-search.js';
import { StatusFilter } from '../status-filter.js';

const route = getRouteApi('/users');

const COLUMNS: readonly TableColumn<SvcUser>[] = [
  { id: 'name', label: 'Name', cell: (user) => user.displayName, isRowHeader: true },
  { id: 'email', label: 'Email', cell: (user) => user.email ?? '—' },
  {
    id: 'operator',
    label: 'Operator',
    cell: (user) => <Badge on={user.isOperator} yes="Operator" no="No" />,
  },
  { id: 'status', label: 'Status', cell: (user) => <Badge on={user.active} yes="Active" no="Deactivated" /> },
  { id: 'created', label: 'Created', cell: (user) => <Time iso={user.createdAt} /> },
];

export function UsersPage() {
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/users' });
  const list = useList('auth', '/users', svcUserSchema, { query: search.q, active: activeOf(search.status) });
  const filtered = search.q !== undefined || search.status !== undefined;
  return (
    <Page title="Users" description="Everyone who can sign in to this Svc, across organizations.">
      <div className="filters">
        <SearchBox
          label="Search"
          placeholder="Email, name or id"
          value={search.q ?? ''}
          onSearch={(q) =>
            void navigate({ search: (prev) => ({ ...prev, q: q || undefined }), replace: true })
          }
        />
        <StatusFilter
          value={search.status}
          onChange={(status) => void navigate({ search: (prev) => ({ ...prev, status }), replace: true })}
        />
      </div>
      <DataTable
        label="Users"
        columns={COLUMNS}
        list={list}
        rowKey={(user) => user.id}
        empty={
          <EmptyState title={filtered ? 'No user matches these filters.' : 'No users yet.'}>
            {filtered
              ? 'Clear the search or the status filter.'
              : 'Users appear here once they sign up or are created.'}
          </EmptyState>
        }
      />
    </Page>
  );
}

import { emailSchema, svcUserSchema, type SvcUser } from '@svc/contract';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useList } from '../../data/queries.js';
import { Badge, Time } from '../../ui/format.js';
import { EmptyState, Page } from '../../ui/page.js';
import { SearchBox } from '../../ui/search.js';
import { DataTable, type TableColumn } from '../../ui/table.js';
import { activeOf } from '../list-search.js';
import { ListFilters } from '../list-filters.js';
import { OrganizationPicker, usePickedOrganization } from '../pickers.js';
import { CreateUser } from './create-user.js';

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
  const organization = usePickedOrganization(search.organizationId);
  // The API takes a whole address only; a partial one would be a 400, so it is not sent.
  const emailProblem =
    search.email === undefined || emailSchema.safeParse(search.email).success
      ? undefined
      : 'Type a whole address, such as ada@example.com, or search by its beginning in Search.';
  const list = useList(
    'auth',
    '/users',
    svcUserSchema,
    {
      query: search.q,
      active: activeOf(search.status),
      organizationId: search.organizationId,
      email: search.email,
    },
    { enabled: emailProblem === undefined },
  );
  const filtered =
    search.q !== undefined ||
    search.status !== undefined ||
    search.organizationId !== undefined ||
    search.email !== undefined;
  return (
    <Page
      title="Users"
      description="Everyone who can sign in to this Svc, across organizations."
      actions={<CreateUser />}
    >
      <ListFilters
        search={search}
        placeholder="Email, name or id"
        onChange={(next) => void navigate({ search: (prev) => ({ ...prev, ...next }), replace: true })}
      >
        <SearchBox
          label="Exact email"
          placeholder="ada@example.com"
          value={search.email ?? ''}
          onSearch={(email) =>
            void navigate({ search: (prev) => ({ ...prev, email: email || undefined }), replace: true })
          }
        />
        <OrganizationPicker
          label="Organization"
          value={organization}
          onChange={(picked) =>
            void navigate({ search: (prev) => ({ ...prev, organizationId: picked?.id }), replace: true })
          }
        />
      </ListFilters>
      {emailProblem !== undefined && (
        <p className="error" role="alert">
          {emailProblem}
        </p>
      )}
      <DataTable
        label="Users"
        columns={COLUMNS}
        list={list}
        rowKey={(user) => user.id}
        rowHref={(user) => `/users/${encodeURIComponent(user.id)}`}
        empty={
          <EmptyState title={filtered ? 'No user matches these filters.' : 'No users yet.'}>
            {filtered
              ? 'Clear the search or the filters.'
              : 'Create one, or invite someone to an organization: users also appear once they sign up.'}
          </EmptyState>
        }
      />
    </Page>
  );
}

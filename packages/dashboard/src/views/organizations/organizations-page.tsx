import { svcOrganizationSchema, type SvcOrganization } from '@svc/contract';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useList } from '../../data/queries.js';
import { Badge, Id, Time } from '../../ui/format.js';
import { EmptyState, Page } from '../../ui/page.js';
import { DataTable, type TableColumn } from '../../ui/table.js';
import { activeOf } from '../list-search.js';
import { ListFilters } from '../list-filters.js';
import { CreateOrganization } from './create-organization.js';

const route = getRouteApi('/organizations');

const COLUMNS: readonly TableColumn<SvcOrganization>[] = [
  { id: 'name', label: 'Name', cell: (organization) => organization.name, isRowHeader: true },
  { id: 'slug', label: 'Slug', cell: (organization) => <Id value={organization.slug} /> },
  { id: 'domain', label: 'Primary domain', cell: (organization) => organization.primaryDomain ?? '—' },
  {
    id: 'status',
    label: 'Status',
    cell: (organization) => <Badge on={organization.active} yes="Active" no="Deactivated" />,
  },
  { id: 'created', label: 'Created', cell: (organization) => <Time iso={organization.createdAt} /> },
];

export function OrganizationsPage() {
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/organizations' });
  const list = useList('auth', '/organizations', svcOrganizationSchema, {
    query: search.q,
    active: activeOf(search.status),
  });
  const filtered = search.q !== undefined || search.status !== undefined;
  return (
    <Page
      title="Organizations"
      description="The tenants users sign in to, with their members, invitations and MFA policy."
      actions={<CreateOrganization />}
    >
      <ListFilters
        search={search}
        placeholder="Name, slug or id"
        onChange={(next) => void navigate({ search: (prev) => ({ ...prev, ...next }), replace: true })}
      />
      <DataTable
        label="Organizations"
        columns={COLUMNS}
        list={list}
        rowKey={(organization) => organization.id}
        rowHref={(organization) => `/organizations/${encodeURIComponent(organization.id)}`}
        empty={
          <EmptyState title={filtered ? 'No organization matches these filters.' : 'No organizations yet.'}>
            {filtered
              ? 'Clear the search or the status filter.'
              : 'Create one for each customer or team whose users sign in together.'}
          </EmptyState>
        }
      />
    </Page>
  );
}

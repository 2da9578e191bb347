import { svcClientSchema, type SvcClient } from '@svc/contract';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useList } from '../../data/queries.js';
import { Badge, Id } from '../../ui/format.js';
import { EmptyState, Page } from '../../ui/page.js';
import { SearchBox } from '../../ui/search.js';
import { DataTable, type TableColumn } from '../../ui/table.js';
import { activeOf } from '../list-search.js';
import { StatusFilter } from '../status-filter.js';

const route = getRouteApi('/applications');

const COLUMNS: readonly TableColumn<SvcClient>[] = [
  { id: 'name', label: 'Name', cell: (client) => client.name, isRowHeader: true },
  { id: 'clientId', label: 'Client ID', cell: (client) => <Id value={client.clientId} /> },
  {
    id: 'firstParty',
    label: 'First party',
    cell: (client) => <Badge on={client.isFirstParty} yes="First party" no="Third party" />,
  },
  { id: 'access', label: 'Access', cell: (client) => client.accessMode },
  {
    id: 'status',
    label: 'Status',
    cell: (client) => <Badge on={client.active} yes="Active" no="Deactivated" />,
  },
];

export function ApplicationsPage() {
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/applications' });
  const list = useList('auth', '/clients', svcClientSchema, {
    query: search.q,
    active: activeOf(search.status),
  });
  const filtered = search.q !== undefined || search.status !== undefined;
  return (
    <Page title="Applications" description="The OAuth clients that sign users in through this Svc.">
      <div className="filters">
        <SearchBox
          label="Search"
          placeholder="Name, client ID or id"
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
        label="Applications"
        columns={COLUMNS}
        list={list}
        rowKey={(client) => client.id}
        empty={
          <EmptyState title={filtered ? 'No application matches these filters.' : 'No applications yet.'}>
            {filtered
              ? 'Clear the search or the status filter.'
              : 'Create one for each app that signs users in.'}
          </EmptyState>
        }
      />
    </Page>
  );
}

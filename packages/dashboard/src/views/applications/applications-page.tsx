import { svcClientSchema, type SvcClient } from '@svc/contract';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useList } from '../../data/queries.js';
import { Badge, Id } from '../../ui/format.js';
import { EmptyState, Page } from '../../ui/page.js';
import { SearchBox } from '../../ui/search.js';
import { SelectField } from '../../ui/fields.js';
import { DataTable, type TableColumn } from '../../ui/table.js';
import { Tabs } from '../../ui/tabs.js';
import { activeOf } from '../list-search.js';
import { StatusFilter } from '../status-filter.js';
import { ACCESS_MODE_LABELS } from './access-modes.js';
import { CreateApplication } from './create-application.js';
import type { ApplicationsSearch } from './applications-search.js';
import { ScopeDisplayNames } from './scope-display-names.js';

const route = getRouteApi('/applications');

/** How a client came to be: an operator created it, or it described itself. */
export function registrationLabel(client: SvcClient): string {
  if (client.registration === null) return 'Created by an operator';
  return client.registration.method === 'dynamic' ? 'Registered itself' : 'Metadata document';
}

type Origin = NonNullable<ApplicationsSearch['origin']> | 'any';

const ORIGINS: readonly { readonly id: Origin; readonly label: string }[] = [
  { id: 'any', label: 'Any' },
  { id: 'operator', label: 'Created by an operator' },
  { id: 'dynamic', label: 'Registered itself' },
  { id: 'metadata_document', label: 'Metadata document' },
];

const COLUMNS: readonly TableColumn<SvcClient>[] = [
  { id: 'name', label: 'Name', cell: (client) => client.name, isRowHeader: true },
  { id: 'clientId', label: 'Client ID', cell: (client) => <Id value={client.clientId} /> },
  {
    id: 'firstParty',
    label: 'First party',
    cell: (client) => <Badge on={client.isFirstParty} yes="First party" no="Third party" />,
  },
  { id: 'access', label: 'Access', cell: (client) => ACCESS_MODE_LABELS[client.accessMode] },
  { id: 'origin', label: 'Origin', cell: registrationLabel },
  {
    id: 'status',
    label: 'Status',
    cell: (client) => <Badge on={client.active} yes="Active" no="Deactivated" />,
  },
];

function ApplicationList() {
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/applications' });
  const list = useList('auth', '/clients', svcClientSchema, {
    query: search.q,
    active: activeOf(search.status),
    registration: search.origin,
  });
  const filtered = search.q !== undefined || search.status !== undefined || search.origin !== undefined;
  return (
    <>
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
        <SelectField<Origin>
          label="Origin"
          field={{
            name: 'origin',
            value: search.origin ?? 'any',
            onChange: (origin) =>
              void navigate({
                search: (prev) => ({ ...prev, origin: origin === 'any' ? undefined : origin }),
                replace: true,
              }),
            errorMessage: undefined,
          }}
          choices={ORIGINS}
        />
      </div>
      <DataTable
        label="Applications"
        columns={COLUMNS}
        list={list}
        rowKey={(client) => client.id}
        rowHref={(client) => `/applications/${encodeURIComponent(client.clientId)}`}
        empty={
          <EmptyState title={filtered ? 'No application matches these filters.' : 'No applications yet.'}>
            {filtered
              ? 'Clear the search or a filter.'
              : 'Create one for each app that signs users in: Create application, above.'}
          </EmptyState>
        }
      />
    </>
  );
}

export function ApplicationsPage() {
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/applications' });
  return (
    <Page
      title="Applications"
      description="The OAuth clients that sign users in through this Svc, and what consent pages call their scopes."
      actions={<CreateApplication />}
    >
      <Tabs
        label="Views"
        selected={search.view ?? 'applications'}
        onSelect={(view) =>
          void navigate({ search: (prev) => ({ ...prev, view: view === 'applications' ? undefined : view }) })
        }
        tabs={[
          { id: 'applications', label: 'Applications', content: <ApplicationList /> },
          { id: 'scopes', label: 'Scope display names', content: <ScopeDisplayNames /> },
        ]}
      />
    </Page>
  );
}

import { pageSchema, svcClientSchema, type SvcClient } from '@svc/contract';
import { useCallback } from 'react';
import type { OperatorApi } from '../api.js';
import { Flag, PagedTable, type Column } from '../paged-table.js';
import { usePaged } from '../use-paged.js';

const clientsPage = pageSchema(svcClientSchema);

const COLUMNS: readonly Column<SvcClient>[] = [
  { label: 'Name', cell: (client) => client.name },
  { label: 'Client ID', cell: (client) => <code>{client.clientId}</code> },
  { label: 'First party', cell: (client) => <Flag on={client.isFirstParty} yes="First party" no="No" /> },
  { label: 'Access mode', cell: (client) => client.accessMode },
  { label: 'Status', cell: (client) => <Flag on={client.active} yes="Active" no="Inactive" /> },
];

export function ClientsView(props: { readonly api: OperatorApi }) {
  const { api } = props;
  const paged = usePaged(
    useCallback((cursor: string | null) => api.list('/clients', clientsPage, cursor), [api]),
  );
  return <PagedTable caption="Clients" columns={COLUMNS} rowKey={(client) => client.id} paged={paged} />;
}

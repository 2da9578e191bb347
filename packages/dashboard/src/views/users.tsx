import { pageSchema, svcUserSchema, type SvcUser } from '@svc/contract';
import { useCallback } from 'react';
import type { OperatorApi } from '../api.js';
import { Flag, PagedTable, Time, type Column } from '../paged-table.js';
import { usePaged } from '../use-paged.js';

const usersPage = pageSchema(svcUserSchema);

const COLUMNS: readonly Column<SvcUser>[] = [
  { label: 'Name', cell: (user) => user.displayName },
  { label: 'Email', cell: (user) => user.email ?? '—' },
  { label: 'Operator', cell: (user) => <Flag on={user.isOperator} yes="Operator" no="No" /> },
  { label: 'Status', cell: (user) => <Flag on={user.active} yes="Active" no="Inactive" /> },
  { label: 'Created', cell: (user) => <Time iso={user.createdAt} /> },
];

export function UsersView(props: { readonly api: OperatorApi }) {
  const { api } = props;
  const paged = usePaged(
    useCallback((cursor: string | null) => api.list('/users', usersPage, cursor), [api]),
  );
  return <PagedTable caption="Users" columns={COLUMNS} rowKey={(user) => user.id} paged={paged} />;
}

import { svcUserMembershipSchema, type SvcUser, type SvcUserMembership } from '@svc/contract';
import { Link } from '@tanstack/react-router';
import { useList } from '../../data/queries.js';
import { Badge, Id, Time } from '../../ui/format.js';
import { EmptyState, Panel } from '../../ui/page.js';
import { DataTable, type TableColumn } from '../../ui/table.js';
import { userPath } from './user-account.js';

const COLUMNS: readonly TableColumn<SvcUserMembership>[] = [
  {
    id: 'organization',
    label: 'Organization',
    cell: (membership) => (
      <Link to="/organizations/$organizationId" params={{ organizationId: membership.organizationId }}>
        {membership.organization.name}
      </Link>
    ),
    isRowHeader: true,
  },
  { id: 'slug', label: 'Slug', cell: (membership) => <Id value={membership.organization.slug} /> },
  { id: 'role', label: 'Role', cell: (membership) => membership.role },
  {
    id: 'status',
    label: 'Status',
    cell: (membership) => <Badge on={membership.active} yes="Active" no="Deactivated" />,
  },
  { id: 'created', label: 'Member since', cell: (membership) => <Time iso={membership.createdAt} /> },
];

/** The organizations the user belongs to, with the role in each; each links to its organization. */
export function UserMembershipsPanel(props: { readonly user: SvcUser }) {
  const list = useList('auth', `${userPath(props.user)}/memberships`, svcUserMembershipSchema);
  return (
    <Panel title="Memberships">
      <DataTable
        label="Memberships"
        columns={COLUMNS}
        list={list}
        rowKey={(membership) => membership.id}
        empty={
          <EmptyState title="No memberships.">
            Add the user to an organization from the organization’s Members tab.
          </EmptyState>
        }
      />
    </Panel>
  );
}

import { svcDomainClaimSchema, type SvcDomainClaim, type SvcOrganization } from '@svc/contract';
import { useList } from '../../data/queries.js';
import { Time } from '../../ui/format.js';
import { EmptyState, Panel } from '../../ui/page.js';
import { DataTable, type TableColumn } from '../../ui/table.js';

const STATUS_LABELS: Readonly<Record<SvcDomainClaim['status'], string>> = {
  pending_ownership: 'Waiting for the DNS record',
  active: 'Verified',
  revoked: 'Revoked',
};

const COLUMNS: readonly TableColumn<SvcDomainClaim>[] = [
  { id: 'domain', label: 'Domain', cell: (claim) => claim.domain, isRowHeader: true },
  {
    id: 'status',
    label: 'Status',
    cell: (claim) => (
      <span className={claim.status === 'active' ? 'badge badge-on' : 'badge'}>
        {STATUS_LABELS[claim.status]}
      </span>
    ),
  },
  {
    id: 'record',
    label: 'TXT record',
    cell: (claim) =>
      claim.status === 'pending_ownership' ? (
        <code className="id">
          {claim.record.name} {claim.record.value}
        </code>
      ) : (
        <span className="muted">—</span>
      ),
  },
  { id: 'checked', label: 'Last check', cell: (claim) => claim.lastCheck?.message ?? '—' },
  { id: 'verified', label: 'Verified', cell: (claim) => <Time iso={claim.verifiedAt} /> },
];

/** The organization's domain claims, read-only: the claim itself is made with the operator API. */
export function DomainsPanel(props: { readonly organization: SvcOrganization }) {
  const list = useList(
    'auth',
    `/organizations/${encodeURIComponent(props.organization.id)}/domains`,
    svcDomainClaimSchema,
  );
  return (
    <Panel title="Domains">
      <DataTable
        label="Domains"
        columns={COLUMNS}
        list={list}
        rowKey={(claim) => claim.id}
        empty={
          <EmptyState title="No domain claims.">
            An organization proves it owns a domain with a DNS TXT record: start a claim with POST
            /svc/admin/auth/api/organizations/{props.organization.id}/domains.
          </EmptyState>
        }
      />
    </Panel>
  );
}

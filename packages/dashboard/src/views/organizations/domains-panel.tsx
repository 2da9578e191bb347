import {
  startDomainVerificationBodySchema,
  svcDomainClaimSchema,
  type SvcDomainCheckResult,
  type SvcDomainClaim,
  type SvcOrganization,
} from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiSend } from '../../api/client.js';
import { invalidate, useAction, useList } from '../../data/queries.js';
import { Button } from '../../ui/button.js';
import { CopyField } from '../../ui/copy-field.js';
import { ConfirmButton, ModalDialog } from '../../ui/dialog.js';
import { DialogForm } from '../../ui/dialog-form.js';
import { TextField } from '../../ui/fields.js';
import { useContractForm } from '../../ui/form.js';
import { Age, Time } from '../../ui/format.js';
import { EmptyState, Panel } from '../../ui/page.js';
import { DataTable, type TableColumn } from '../../ui/table.js';
import { notify } from '../../ui/toast.js';
import { ssoPaths } from './sso/sso-paths.js';

const STATUS_LABELS: Readonly<Record<SvcDomainClaim['status'], string>> = {
  pending_ownership: 'Waiting for the DNS record',
  active: 'Verified',
  revoked: 'Revoked',
};

const claimPath = (claim: SvcDomainClaim) =>
  `${ssoPaths.domains(claim.organizationId)}/${encodeURIComponent(claim.id)}`;

/**
 * The TXT record the claim waits for, each part with its Copy button as a DNS console asks for them, and
 * what the last look-up found.
 */
function OwnershipRecord(props: { readonly claim: SvcDomainClaim }) {
  const { record, lastCheck } = props.claim;
  return (
    <>
      <CopyField label="Record name" value={record.name} description={`Type: ${record.type}.`} />
      <CopyField label="Record value" value={record.value} />
      {lastCheck !== null && (
        <p className="hint">
          Last check, <Age iso={lastCheck.checkedAt} />: {lastCheck.message}
        </p>
      )}
    </>
  );
}

function ClaimForm(props: { readonly organization: SvcOrganization; readonly close: () => void }) {
  const client = useQueryClient();
  const [claim, setClaim] = useState<SvcDomainClaim>();
  const form = useContractForm({
    schema: startDomainVerificationBodySchema,
    initial: { domain: '' },
    toBody: (values) => values,
    submit: async (body) => {
      const started = await apiSend(
        'POST',
        'auth',
        ssoPaths.domains(props.organization.id),
        body,
        svcDomainClaimSchema,
      );
      await invalidate(client, 'auth', [ssoPaths.domains(props.organization.id)]);
      setClaim(started);
    },
  });
  if (claim !== undefined) {
    return (
      <>
        <div className="dialog-body">
          <p>
            {claim.status === 'active'
              ? `${claim.domain} is verified already.`
              : `Publish this TXT record in the DNS of ${claim.domain}, then press Verify now on its row.`}
          </p>
          {claim.status !== 'active' && <OwnershipRecord claim={claim} />}
        </div>
        <div className="dialog-actions">
          <Button tone="primary" onPress={props.close}>
            Done
          </Button>
        </div>
      </>
    );
  }
  return (
    <DialogForm form={form} submitLabel="Claim domain" onCancel={props.close}>
      <TextField
        label="Domain"
        field={form.field('domain')}
        isRequired
        autoComplete="off"
        placeholder="acme.com"
        description="An email domain of the organization; a subdomain needs a claim of its own."
      />
    </DialogForm>
  );
}

function ClaimActions(props: { readonly claim: SvcDomainClaim }) {
  const { claim } = props;
  const refresh = [ssoPaths.domains(claim.organizationId)];
  const verify = useAction({
    run: () => apiSend('POST', 'auth', `${claimPath(claim)}/verify`, undefined, svcDomainClaimSchema),
    refresh,
    onSuccess: (checked) =>
      checked.status === 'active'
        ? notify.success(`${checked.domain} is verified.`)
        : notify.notice(`${checked.domain} is not verified yet`, checked.lastCheck?.message),
  });
  const revoke = useAction({
    run: () => apiSend('POST', 'auth', `${claimPath(claim)}/revoke`, undefined, svcDomainClaimSchema),
    refresh,
    success: `Revoked the claim on ${claim.domain}.`,
    quiet: true,
  });
  if (claim.status === 'revoked') return null;
  return (
    <div className="row-actions">
      {claim.status === 'pending_ownership' && (
        <>
          <ModalDialog title={`The TXT record of ${claim.domain}`} trigger={<Button>Show record</Button>}>
            {(close) => (
              <>
                <div className="dialog-body">
                  <OwnershipRecord claim={claim} />
                </div>
                <div className="dialog-actions">
                  <Button tone="primary" onPress={close}>
                    Close
                  </Button>
                </div>
              </>
            )}
          </ModalDialog>
          <Button onPress={() => verify.mutate()} isPending={verify.isPending}>
            Verify now
          </Button>
        </>
      )}
      <ConfirmButton
        label="Revoke"
        title={`Revoke the claim on ${claim.domain}?`}
        run={() => revoke.mutateAsync()}
      >
        <p>
          {claim.domain} stops counting as the organization&apos;s at once: its users are no longer sent to
          the organization&apos;s SAML connection by this domain, and first sign-ins through its connections
          no longer create or link accounts of this domain. Claiming it again needs a new TXT record.
        </p>
      </ConfirmButton>
    </div>
  );
}

/** What the last look-up found, in a word; the whole message is in the record's dialog. */
const CHECK_LABELS: Readonly<Record<SvcDomainCheckResult, string>> = {
  verified: 'Record found',
  record_missing: 'No record yet',
  value_mismatch: 'Another value found',
  dns_error: 'DNS did not answer',
};

const COLUMNS: readonly TableColumn<SvcDomainClaim>[] = [
  { id: 'domain', label: 'Domain', cell: (claim) => claim.domain, isRowHeader: true },
  {
    id: 'status',
    label: 'Status',
    cell: (claim) => (
      <>
        <span className={claim.status === 'active' ? 'badge badge-on' : 'badge'}>
          {STATUS_LABELS[claim.status]}
        </span>
        {claim.verifiedAt !== null && (
          <span className="cell-detail muted">
            since <Time iso={claim.verifiedAt} />
          </span>
        )}
      </>
    ),
  },
  {
    id: 'checked',
    label: 'Last check',
    cell: (claim) =>
      claim.lastCheck === null ? (
        <span className="muted">Not checked yet</span>
      ) : (
        <>
          {CHECK_LABELS[claim.lastCheck.result]}
          <span className="cell-detail muted">
            <Age iso={claim.lastCheck.checkedAt} />
          </span>
        </>
      ),
  },
  { id: 'actions', label: 'Actions', cell: (claim) => <ClaimActions claim={claim} /> },
];

/**
 * The organization's domain claims (docs/reference/organizations.md "Domain claims"): claim a domain,
 * publish its TXT record, verify now, revoke. A verified domain sends its users to the organization's
 * SAML connection and lets its connections sign them up.
 */
export function DomainsPanel(props: { readonly organization: SvcOrganization }) {
  const { organization } = props;
  const list = useList('auth', ssoPaths.domains(organization.id), svcDomainClaimSchema);
  return (
    <Panel
      title="Domains"
      actions={
        <ModalDialog
          title={`Claim a domain for ${organization.name}`}
          trigger={<Button tone="primary">Claim a domain</Button>}
        >
          {(close) => <ClaimForm organization={organization} close={close} />}
        </ModalDialog>
      }
    >
      <DataTable
        label="Domains"
        columns={COLUMNS}
        list={list}
        rowKey={(claim) => claim.id}
        empty={
          <EmptyState title="No domain claims.">
            Claim an email domain of the organization and publish the DNS TXT record it asks for: once
            verified, its users sign in through the organization&apos;s SAML connection.
          </EmptyState>
        }
      />
    </Panel>
  );
}

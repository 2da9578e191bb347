import {
  createSsoConnectionBodySchema,
  svcSsoConnectionSchema,
  type SvcOrganization,
  type SvcSsoConnection,
} from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { apiSend } from '../../../api/client.js';
import { invalidate, useList } from '../../../data/queries.js';
import { Button } from '../../../ui/button.js';
import { ModalDialog } from '../../../ui/dialog.js';
import { DialogForm } from '../../../ui/dialog-form.js';
import { SwitchField, TextField } from '../../../ui/fields.js';
import { useContractForm } from '../../../ui/form.js';
import { Time } from '../../../ui/format.js';
import { EmptyState, Panel } from '../../../ui/page.js';
import { DataTable, type TableColumn } from '../../../ui/table.js';
import { notify } from '../../../ui/toast.js';
import { ExpiryBadge, lastValidUntil, SamlStatus } from './saml-status.js';
import { ssoPaths } from './sso-paths.js';

const COLUMNS: readonly TableColumn<SvcSsoConnection>[] = [
  { id: 'name', label: 'Name', cell: (connection) => connection.displayName, isRowHeader: true },
  { id: 'status', label: 'Status', cell: (connection) => <SamlStatus connection={connection} /> },
  { id: 'domain', label: 'Primary domain', cell: (connection) => connection.primaryDomain ?? '—' },
  {
    id: 'idp',
    label: 'Identity provider',
    cell: (connection) =>
      connection.idpEntityId === null ? (
        <span className="muted">—</span>
      ) : (
        <code className="id">{connection.idpEntityId}</code>
      ),
  },
  {
    id: 'certificate',
    label: 'Certificate',
    cell: (connection) => <ExpiryBadge notAfter={lastValidUntil(connection.idpCertificates)} />,
  },
  { id: 'created', label: 'Created', cell: (connection) => <Time iso={connection.createdAt} /> },
];

function CreateSamlForm(props: { readonly organization: SvcOrganization; readonly close: () => void }) {
  const { organization } = props;
  const client = useQueryClient();
  const navigate = useNavigate();
  const form = useContractForm({
    schema: createSsoConnectionBodySchema,
    initial: {
      displayName: '',
      primaryDomain: '',
      autoProvisionUsers: false as boolean,
      autoLinkByEmail: false as boolean,
    },
    toBody: (values) => values,
    submit: async (body) => {
      const created = await apiSend(
        'POST',
        'auth',
        ssoPaths.samlConnections(organization.id),
        body,
        svcSsoConnectionSchema,
      );
      await invalidate(client, 'auth', [ssoPaths.samlConnections(organization.id)]);
      notify.success(`Created ${created.displayName}.`, 'Next: give its details to the identity provider.');
      props.close();
      await navigate({
        to: '/organizations/$organizationId/saml/$connectionId',
        params: { organizationId: organization.id, connectionId: created.id },
      });
    },
  });
  return (
    <DialogForm form={form} submitLabel="Create connection" onCancel={props.close}>
      <TextField
        label="Name"
        field={form.field('displayName')}
        isRequired
        autoComplete="off"
        description="What operators call it, such as Acme Okta."
      />
      <TextField
        label="Primary domain"
        field={form.field('primaryDomain')}
        autoComplete="off"
        description="Optional: users of this email domain are sent to the IdP. Nothing proves it is theirs; a verified domain claim of the organization does the same and is proved, and wins."
      />
      <SwitchField
        label="Create users on their first sign-in"
        field={form.field('autoProvisionUsers')}
        description="Only for addresses in the organization's verified domains."
      />
      <SwitchField
        label="Link existing accounts by email"
        field={form.field('autoLinkByEmail')}
        description="An account with the asserted address signs in through the IdP from then on; only for addresses in the organization's verified domains."
      />
      <p className="hint">
        It starts as a disabled draft. These settings cannot be changed later: make a new connection for
        others. Importing the IdP&apos;s metadata enables it.
      </p>
    </DialogForm>
  );
}

/** The organization's SAML connections: the list, and a new draft. */
export function SamlConnectionsPanel(props: { readonly organization: SvcOrganization }) {
  const { organization } = props;
  const list = useList('auth', ssoPaths.samlConnections(organization.id), svcSsoConnectionSchema);
  return (
    <Panel
      title="SAML connections"
      actions={
        <ModalDialog
          title={`New SAML connection for ${organization.name}`}
          trigger={<Button tone="primary">New SAML connection</Button>}
        >
          {(close) => <CreateSamlForm organization={organization} close={close} />}
        </ModalDialog>
      }
    >
      <DataTable
        label="SAML connections"
        columns={COLUMNS}
        list={list}
        rowKey={(connection) => connection.id}
        rowHref={(connection) =>
          `/organizations/${encodeURIComponent(organization.id)}/saml/${encodeURIComponent(connection.id)}`
        }
        empty={
          <EmptyState title="No SAML connections.">
            Add one for the organization&apos;s identity provider (Okta, Entra ID, Google Workspace…), give
            the IdP its details, then import the IdP&apos;s metadata.
          </EmptyState>
        }
      />
    </Panel>
  );
}

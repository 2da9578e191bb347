import {
  createScimConnectionBodySchema,
  svcScimConnectionSchema,
  svcScimConnectionWithTokenSchema,
  type SvcOrganization,
  type SvcScimConnection,
  type SvcScimConnectionWithToken,
} from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiSend } from '../../../api/client.js';
import { invalidate, useList } from '../../../data/queries.js';
import { Button } from '../../../ui/button.js';
import { ModalDialog } from '../../../ui/dialog.js';
import { DialogForm } from '../../../ui/dialog-form.js';
import { SelectField, TextField } from '../../../ui/fields.js';
import { useContractForm } from '../../../ui/form.js';
import { Badge, Time } from '../../../ui/format.js';
import { EmptyState, Panel } from '../../../ui/page.js';
import { DataTable, type TableColumn } from '../../../ui/table.js';
import { notify } from '../../../ui/toast.js';
import { nameOf, resourceChoices, useResources } from '../../authorization/fga-data.js';
import { BOUNDARY_LABELS, scimConnectionHref, scimPaths } from './scim-paths.js';
import { ScimToken } from './scim-token.js';

const NO_BOUNDARY = '';

/** The grant boundary's choices: no boundary yet, or any resource of the FGA tree. */
export function useBoundaryChoices() {
  const resources = useResources();
  return [
    { id: NO_BOUNDARY, label: 'None yet (mapping rules grant nothing)' },
    ...resourceChoices(resources.data),
  ];
}

function CreateForm(props: {
  readonly organization: SvcOrganization;
  readonly close: () => void;
  readonly created: (connection: SvcScimConnectionWithToken) => void;
}) {
  const client = useQueryClient();
  const boundaries = useBoundaryChoices();
  const form = useContractForm({
    schema: createScimConnectionBodySchema,
    initial: { displayName: '', grantBoundaryResourceId: NO_BOUNDARY },
    toBody: (values) => ({
      displayName: values.displayName.trim() === '' ? undefined : values.displayName,
      grantBoundaryResourceId:
        values.grantBoundaryResourceId === NO_BOUNDARY ? null : values.grantBoundaryResourceId,
    }),
    submit: async (body) => {
      const created = await apiSend(
        'POST',
        'auth',
        scimPaths.connections(props.organization.id),
        body,
        svcScimConnectionWithTokenSchema,
      );
      await invalidate(client, 'auth', [scimPaths.connections(props.organization.id)]);
      notify.success(`Created ${created.displayName}.`);
      props.created(created);
    },
  });
  return (
    <DialogForm form={form} submitLabel="Create connection" onCancel={props.close}>
      <p>
        The connection starts disabled; enable it once the identity provider has its URL and token. Its
        mapping rules grant FGA roles only on the grant boundary resource and below it.
      </p>
      <TextField
        label="Name"
        field={form.field('displayName')}
        description="Defaults to the organization's name."
      />
      <SelectField
        label="Grant boundary"
        field={form.field('grantBoundaryResourceId')}
        choices={boundaries}
      />
    </DialogForm>
  );
}

function CreateConnection(props: { readonly organization: SvcOrganization }) {
  const [created, setCreated] = useState<SvcScimConnectionWithToken>();
  return (
    <ModalDialog
      title={
        created === undefined ? `New SCIM connection for ${props.organization.name}` : 'The bearer token'
      }
      isDismissable={created === undefined}
      onOpenChange={(open) => {
        if (!open) setCreated(undefined);
      }}
      trigger={<Button tone="primary">New SCIM connection</Button>}
    >
      {(close) =>
        created === undefined ? (
          <CreateForm organization={props.organization} close={close} created={setCreated} />
        ) : (
          <ScimToken token={created.token} baseUrl={created.baseUrl} onDone={close} />
        )
      }
    </ModalDialog>
  );
}

/** The organization's SCIM connections: the identity providers that push its users and groups. */
export function ScimPanel(props: { readonly organization: SvcOrganization }) {
  const { organization } = props;
  const list = useList('auth', scimPaths.connections(organization.id), svcScimConnectionSchema);
  const resources = useResources();
  const columns: readonly TableColumn<SvcScimConnection>[] = [
    { id: 'name', label: 'Name', cell: (connection) => connection.displayName, isRowHeader: true },
    {
      id: 'status',
      label: 'Status',
      cell: (connection) => <Badge on={connection.enabled} yes="Enabled" no="Disabled" />,
    },
    {
      id: 'boundary',
      label: 'Grant boundary',
      cell: (connection) =>
        connection.grantBoundary.resourceId === null
          ? BOUNDARY_LABELS.missing
          : `${nameOf(resources.data, connection.grantBoundary.resourceId)}${
              connection.grantBoundary.status === 'configured'
                ? ''
                : ` (${BOUNDARY_LABELS[connection.grantBoundary.status]})`
            }`,
    },
    {
      id: 'owner',
      label: 'Managed by',
      cell: (connection) => (connection.owner === 'code' ? 'Code (read-only)' : 'Operators'),
    },
    { id: 'created', label: 'Created', cell: (connection) => <Time iso={connection.createdAt} /> },
  ];
  return (
    <Panel title="Directory sync" actions={<CreateConnection organization={organization} />}>
      <p className="hint">
        A SCIM connection lets the customer&apos;s identity provider create, change and deactivate the
        organization&apos;s users and push its groups; mapping rules turn those groups into FGA grants.
      </p>
      <DataTable
        label="SCIM connections"
        columns={columns}
        list={list}
        rowKey={(connection) => connection.id}
        rowHref={(connection) => scimConnectionHref(organization.id, connection.id)}
        empty={
          <EmptyState title="No SCIM connections.">
            Create one and give its URL and bearer token to the identity provider.
          </EmptyState>
        }
      />
    </Panel>
  );
}

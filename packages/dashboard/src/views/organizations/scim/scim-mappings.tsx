import {
  createScimMappingBodySchema,
  svcScimMappingSchema,
  type SvcScimConnection,
  type SvcScimMapping,
} from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { apiSend, noBody } from '../../../api/client.js';
import { invalidate, useAction, useList } from '../../../data/queries.js';
import { Button } from '../../../ui/button.js';
import { ConfirmButton, ModalDialog } from '../../../ui/dialog.js';
import { DialogForm } from '../../../ui/dialog-form.js';
import { SelectField, TextField } from '../../../ui/fields.js';
import { useContractForm } from '../../../ui/form.js';
import { Badge } from '../../../ui/format.js';
import { EmptyState, Panel } from '../../../ui/page.js';
import { DataTable, type TableColumn } from '../../../ui/table.js';
import { notify } from '../../../ui/toast.js';
import {
  nameOf,
  resourceChoices,
  roleChoices,
  useResources,
  useRoles,
} from '../../authorization/fga-data.js';
import { BOUNDARY_LABELS, scimPaths } from './scim-paths.js';

const orUndefined = (value: string) => (value.trim() === '' ? undefined : value);

function CreateMappingForm(props: { readonly connection: SvcScimConnection; readonly close: () => void }) {
  const { connection } = props;
  const client = useQueryClient();
  const roles = useRoles();
  const resources = useResources();
  const form = useContractForm({
    schema: createScimMappingBodySchema,
    initial: { displayName: '', groupDisplayName: '', groupExternalId: '', roleId: '', resourceId: '' },
    toBody: (values) => ({
      displayName: values.displayName,
      match: {
        groupDisplayName: orUndefined(values.groupDisplayName),
        groupExternalId: orUndefined(values.groupExternalId),
      },
      roleId: values.roleId,
      resourceId: values.resourceId,
    }),
    submit: async (body) => {
      const created = await apiSend(
        'POST',
        'auth',
        scimPaths.mappings(connection.id),
        body,
        svcScimMappingSchema,
      );
      await invalidate(client, 'auth', [scimPaths.mappings(connection.id)]);
      notify.success(`Created the rule ${created.displayName}.`);
      props.close();
    },
  });
  // A refused match (neither given) names `match`, which no field is: shown beside the group name.
  const groupName = form.field('groupDisplayName');
  return (
    <DialogForm form={form} submitLabel="Create rule" onCancel={props.close}>
      <TextField label="Name" field={form.field('displayName')} />
      <TextField
        label="SCIM group name"
        field={groupName}
        description="Matched case-insensitively, as SCIM compares names."
      />
      <TextField
        label="SCIM group external ID"
        field={form.field('groupExternalId')}
        description="Optional; a group must match both when both are given."
      />
      <SelectField label="Role" field={form.field('roleId')} choices={roleChoices(roles.data)} />
      <SelectField
        label="On resource"
        field={form.field('resourceId')}
        description="The grant boundary or a resource below it."
        choices={resourceChoices(resources.data)}
      />
    </DialogForm>
  );
}

function MappingActions(props: { readonly mapping: SvcScimMapping }) {
  const { mapping } = props;
  const refresh = [scimPaths.mappings(mapping.connectionId)];
  const toggle = useAction({
    run: () =>
      apiSend(
        'POST',
        'auth',
        `${scimPaths.mapping(mapping.id)}/${mapping.enabled ? 'disable' : 'enable'}`,
        undefined,
        svcScimMappingSchema,
      ),
    refresh,
    success: mapping.enabled ? `Disabled ${mapping.displayName}.` : `Enabled ${mapping.displayName}.`,
  });
  const remove = useAction({
    run: () => apiSend('DELETE', 'auth', scimPaths.mapping(mapping.id), undefined, noBody),
    refresh,
    success: `Deleted ${mapping.displayName}.`,
    quiet: true,
  });
  return (
    <div className="row-actions">
      <Button onPress={() => toggle.mutate(undefined)} isPending={toggle.isPending}>
        {mapping.enabled ? 'Disable' : 'Enable'}
      </Button>
      <ConfirmButton
        label="Delete"
        title={`Delete the rule ${mapping.displayName}?`}
        tone="danger"
        triggerTone="quiet"
        run={() => remove.mutateAsync(undefined)}
      >
        <p>The grants it made are revoked: the group&apos;s members lose the role it gave them.</p>
      </ConfirmButton>
    </div>
  );
}

/** The connection's group→grant rules, each with whether it can grant now (inside the boundary). */
export function ScimMappingsPanel(props: { readonly connection: SvcScimConnection }) {
  const { connection } = props;
  const list = useList('auth', scimPaths.mappings(connection.id), svcScimMappingSchema);
  const roles = useRoles();
  const resources = useResources();
  const columns: readonly TableColumn<SvcScimMapping>[] = [
    { id: 'name', label: 'Name', cell: (mapping) => mapping.displayName, isRowHeader: true },
    {
      id: 'match',
      label: 'SCIM group',
      cell: (mapping) =>
        [
          mapping.match.groupDisplayName,
          mapping.match.groupExternalId && `externalId ${mapping.match.groupExternalId}`,
        ]
          .filter(Boolean)
          .join(', '),
    },
    { id: 'role', label: 'Role', cell: (mapping) => nameOf(roles.data, mapping.roleId) },
    { id: 'resource', label: 'On', cell: (mapping) => nameOf(resources.data, mapping.resourceId) },
    {
      id: 'boundary',
      label: 'Boundary',
      cell: (mapping) => (
        <span className={mapping.grantBoundaryStatus === 'configured' ? 'badge badge-on' : 'badge'}>
          {BOUNDARY_LABELS[mapping.grantBoundaryStatus]}
        </span>
      ),
    },
    {
      id: 'status',
      label: 'Status',
      cell: (mapping) => <Badge on={mapping.enabled} yes="Enabled" no="Disabled" />,
    },
    { id: 'actions', label: 'Actions', cell: (mapping) => <MappingActions mapping={mapping} /> },
  ];
  return (
    <Panel
      title="Mapping rules"
      actions={
        <ModalDialog title="New mapping rule" trigger={<Button tone="primary">New mapping rule</Button>}>
          {(close) => <CreateMappingForm connection={connection} close={close} />}
        </ModalDialog>
      }
    >
      <p className="hint">
        The members of a matching SCIM group hold the role on the resource, managed by this connection, while
        the resource is inside the connection&apos;s grant boundary.
      </p>
      <DataTable
        label="Mapping rules"
        columns={columns}
        list={list}
        rowKey={(mapping) => mapping.id}
        empty={
          <EmptyState title="No mapping rules.">
            Add one to give the members of a SCIM group a role on a resource.
          </EmptyState>
        }
      />
    </Panel>
  );
}

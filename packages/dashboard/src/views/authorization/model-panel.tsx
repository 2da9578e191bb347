import {
  createFgaKeyedBodySchema,
  createFgaRoleBodySchema,
  svcFgaKeyedRecordSchema,
  svcFgaRoleSchema,
  type SvcFgaKeyedRecord,
  type SvcFgaRole,
} from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { apiSend } from '../../api/client.js';
import { invalidate, wholeList } from '../../data/queries.js';
import { Button } from '../../ui/button.js';
import { ModalDialog } from '../../ui/dialog.js';
import { DialogForm } from '../../ui/dialog-form.js';
import { TextField } from '../../ui/fields.js';
import { lines, useContractForm } from '../../ui/form.js';
import { EmptyState, Panel } from '../../ui/page.js';
import { DataTable, type TableColumn } from '../../ui/table.js';
import { notify } from '../../ui/toast.js';
import { fgaPaths, usePermissions, useResourceTypes, useRoles } from './fga-data.js';

const KEY_HINT = 'Lower-case letters, digits and _ . : -, as code checks it; it never changes.';

function KeyedForm(props: { readonly path: string; readonly noun: string; readonly close: () => void }) {
  const client = useQueryClient();
  const form = useContractForm({
    schema: createFgaKeyedBodySchema,
    initial: { key: '', name: '' },
    toBody: (values) => values,
    submit: async (body) => {
      const created = await apiSend('POST', 'fga', props.path, body, svcFgaKeyedRecordSchema);
      await invalidate(client, 'fga', [props.path]);
      notify.success(`Created the ${props.noun} ${created.key}.`);
      props.close();
    },
  });
  return (
    <DialogForm form={form} submitLabel={`Create ${props.noun}`} onCancel={props.close}>
      <TextField label="Key" field={form.field('key')} description={KEY_HINT} />
      <TextField label="Name" field={form.field('name')} />
    </DialogForm>
  );
}

function RoleForm(props: { readonly close: () => void }) {
  const client = useQueryClient();
  const form = useContractForm({
    schema: createFgaRoleBodySchema,
    initial: { key: '', name: '', permissionKeys: '' },
    toBody: (values) => ({ ...values, permissionKeys: lines.parse(values.permissionKeys) }),
    submit: async (body) => {
      const created = await apiSend('POST', 'fga', fgaPaths.roles, body, svcFgaRoleSchema);
      await invalidate(client, 'fga', [fgaPaths.roles]);
      notify.success(`Created the role ${created.key}.`);
      props.close();
    },
  });
  return (
    <DialogForm form={form} submitLabel="Create role" onCancel={props.close}>
      <TextField label="Key" field={form.field('key')} description={KEY_HINT} />
      <TextField label="Name" field={form.field('name')} />
      <TextField
        label="Permissions"
        field={form.field('permissionKeys')}
        multiline
        description="The permission keys the role gives, one a line."
      />
    </DialogForm>
  );
}

const keyedColumns: readonly TableColumn<SvcFgaKeyedRecord>[] = [
  { id: 'key', label: 'Key', cell: (record) => <code className="id">{record.key}</code>, isRowHeader: true },
  { id: 'name', label: 'Name', cell: (record) => record.name },
];

const roleColumns: readonly TableColumn<SvcFgaRole>[] = [
  ...(keyedColumns as readonly TableColumn<SvcFgaRole>[]),
  {
    id: 'permissions',
    label: 'Permissions',
    cell: (role) => (role.permissionKeys.length === 0 ? '—' : role.permissionKeys.join(', ')),
  },
];

function CreateButton(props: {
  readonly title: string;
  readonly children: (close: () => void) => ReactNode;
}) {
  return (
    <ModalDialog title={props.title} trigger={<Button tone="primary">{props.title}</Button>}>
      {props.children}
    </ModalDialog>
  );
}

/** The model: the kinds of resource, the permissions code checks, and the roles that bundle them. */
export function ModelPanel() {
  const types = useResourceTypes();
  const permissions = usePermissions();
  const roles = useRoles();
  return (
    <>
      <Panel
        title="Resource types"
        actions={
          <CreateButton title="New resource type">
            {(close) => <KeyedForm path={fgaPaths.resourceTypes} noun="resource type" close={close} />}
          </CreateButton>
        }
      >
        <DataTable
          label="Resource types"
          columns={keyedColumns}
          list={wholeList(types, types.data)}
          rowKey={(record) => record.id}
          empty={
            <EmptyState title="No resource types.">
              Add one for each kind of thing you protect: workspace, project, document.
            </EmptyState>
          }
        />
      </Panel>
      <Panel
        title="Permissions"
        actions={
          <CreateButton title="New permission">
            {(close) => <KeyedForm path={fgaPaths.permissions} noun="permission" close={close} />}
          </CreateButton>
        }
      >
        <DataTable
          label="Permissions"
          columns={keyedColumns}
          list={wholeList(permissions, permissions.data)}
          rowKey={(record) => record.id}
          empty={
            <EmptyState title="No permissions.">
              Add the actions your code checks, such as document.read.
            </EmptyState>
          }
        />
      </Panel>
      <Panel
        title="Roles"
        actions={<CreateButton title="New role">{(close) => <RoleForm close={close} />}</CreateButton>}
      >
        <DataTable
          label="Roles"
          columns={roleColumns}
          list={wholeList(roles, roles.data)}
          rowKey={(record) => record.id}
          empty={
            <EmptyState title="No roles.">
              A role bundles permissions; grants give a role on a resource.
            </EmptyState>
          }
        />
      </Panel>
    </>
  );
}

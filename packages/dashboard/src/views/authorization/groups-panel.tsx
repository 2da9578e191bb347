import {
  createFgaGroupBodySchema,
  svcFgaGroupMemberSchema,
  svcFgaGroupSchema,
  type SvcFgaSubject as SvcFgaGroup,
  type SvcFgaGroupMember,
} from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiSend, noBody } from '../../api/client.js';
import { invalidate, useAction, useList, wholeList } from '../../data/queries.js';
import { Button } from '../../ui/button.js';
import { ConfirmButton, ModalDialog } from '../../ui/dialog.js';
import { DialogForm } from '../../ui/dialog-form.js';
import { TextField } from '../../ui/fields.js';
import { ErrorText } from '../../ui/form-parts.js';
import { useContractForm } from '../../ui/form.js';
import { Time } from '../../ui/format.js';
import { EmptyState, Panel } from '../../ui/page.js';
import type { Picked } from '../../ui/record-picker.js';
import { DataTable, type TableColumn } from '../../ui/table.js';
import { notify } from '../../ui/toast.js';
import { useCall } from '../../ui/use-call.js';
import { OrganizationPicker, UserPicker } from '../pickers.js';
import { fgaPaths, nameOf, useGroups, useSubjects } from './fga-data.js';

function GroupForm(props: { readonly close: () => void }) {
  const client = useQueryClient();
  const [organization, setOrganization] = useState<Picked | null>(null);
  const form = useContractForm({
    schema: createFgaGroupBodySchema,
    initial: { name: '' },
    toBody: (values) => ({ name: values.name, organizationId: organization?.id ?? null }),
    submit: async (body) => {
      const created = await apiSend('POST', 'fga', fgaPaths.groups, body, svcFgaGroupSchema);
      await invalidate(client, 'fga', [fgaPaths.groups, fgaPaths.subjects]);
      notify.success(`Created the group ${created.name}.`);
      props.close();
    },
  });
  return (
    <DialogForm form={form} submitLabel="Create group" onCancel={props.close}>
      <TextField label="Name" field={form.field('name')} />
      <OrganizationPicker label="Organization (optional)" value={organization} onChange={setOrganization} />
    </DialogForm>
  );
}

function Members(props: { readonly group: SvcFgaGroup }) {
  const { group } = props;
  const client = useQueryClient();
  const list = useList('fga', fgaPaths.members(group.id), svcFgaGroupMemberSchema);
  const subjects = useSubjects();
  const [user, setUser] = useState<Picked | null>(null);
  const call = useCall();
  const add = (picked: Picked) =>
    call.run(async () => {
      await apiSend('POST', 'fga', fgaPaths.member(group.id, picked.id), undefined, svcFgaGroupMemberSchema);
      await invalidate(client, 'fga', [fgaPaths.members(group.id)]);
      notify.success(`Added ${picked.label} to ${group.name}.`);
      setUser(null);
    });
  const columns: readonly TableColumn<SvcFgaGroupMember>[] = [
    { id: 'user', label: 'User', cell: (member) => nameOf(subjects.data, member.userId), isRowHeader: true },
    { id: 'added', label: 'Added', cell: (member) => <Time iso={member.createdAt} /> },
    { id: 'actions', label: 'Actions', cell: (member) => <RemoveMember group={group} member={member} /> },
  ];
  return (
    <div className="dialog-body">
      <div className="search-row">
        <UserPicker label="Add a user" value={user} onChange={setUser} />
        <Button
          isDisabled={user === null}
          isPending={call.pending}
          onPress={() => user !== null && void add(user)}
        >
          Add
        </Button>
      </div>
      <ErrorText message={call.error} />
      <DataTable
        label={`Members of ${group.name}`}
        columns={columns}
        list={list}
        rowKey={(member) => member.userId}
        empty={
          <EmptyState title="No members.">
            A group&apos;s members hold what is granted to the group.
          </EmptyState>
        }
      />
    </div>
  );
}

function RemoveMember(props: { readonly group: SvcFgaGroup; readonly member: SvcFgaGroupMember }) {
  const remove = useAction({
    surface: 'fga',
    run: () =>
      apiSend('DELETE', 'fga', fgaPaths.member(props.group.id, props.member.userId), undefined, noBody),
    refresh: [fgaPaths.members(props.group.id)],
    success: 'Removed the member.',
  });
  return (
    <Button tone="quiet" onPress={() => remove.mutate(undefined)} isPending={remove.isPending}>
      Remove
    </Button>
  );
}

function GroupActions(props: { readonly group: SvcFgaGroup }) {
  const { group } = props;
  const remove = useAction({
    surface: 'fga',
    run: () => apiSend('DELETE', 'fga', fgaPaths.group(group.id), undefined, noBody),
    refresh: [fgaPaths.groups, fgaPaths.subjects, fgaPaths.grants],
    success: `Deleted the group ${group.name}.`,
    quiet: true,
  });
  return (
    <div className="row-actions">
      <ModalDialog title={`Members of ${group.name}`} trigger={<Button>Members</Button>}>
        {(close) => (
          <>
            <Members group={group} />
            <div className="dialog-actions">
              <Button onPress={close}>Close</Button>
            </div>
          </>
        )}
      </ModalDialog>
      <ConfirmButton
        label="Delete"
        title={`Delete the group ${group.name}?`}
        tone="danger"
        triggerTone="quiet"
        run={() => remove.mutateAsync(undefined)}
      >
        <p>Its grants are revoked with it: its members lose what they held through it.</p>
      </ConfirmButton>
    </div>
  );
}

/** Groups of users, which grants can name; each with its members. */
export function GroupsPanel() {
  const groups = useGroups();
  const columns: readonly TableColumn<SvcFgaGroup>[] = [
    { id: 'name', label: 'Name', cell: (group) => group.name, isRowHeader: true },
    {
      id: 'organization',
      label: 'Organization',
      cell: (group) =>
        group.organizationId === null ? '—' : <code className="id">{group.organizationId}</code>,
    },
    { id: 'created', label: 'Created', cell: (group) => <Time iso={group.createdAt} /> },
    { id: 'actions', label: 'Actions', cell: (group) => <GroupActions group={group} /> },
  ];
  return (
    <Panel
      title="Groups"
      actions={
        <ModalDialog title="New group" trigger={<Button tone="primary">New group</Button>}>
          {(close) => <GroupForm close={close} />}
        </ModalDialog>
      }
    >
      <DataTable
        label="Groups"
        columns={columns}
        list={wholeList(groups, groups.data)}
        rowKey={(group) => group.id}
        empty={<EmptyState title="No groups.">A group lets one grant cover many users.</EmptyState>}
      />
    </Panel>
  );
}

import {
  createMembershipBodySchema,
  svcMembershipSchema,
  svcOrganizationMemberSchema,
  updateMembershipBodySchema,
  type SvcMembership,
  type SvcOrganization,
  type SvcOrganizationMember,
} from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { apiSend } from '../../api/client.js';
import { invalidate, useAction, useList } from '../../data/queries.js';
import { Button } from '../../ui/button.js';
import { ConfirmButton, ModalDialog } from '../../ui/dialog.js';
import { TextField } from '../../ui/fields.js';
import { DialogForm } from '../../ui/dialog-form.js';
import { useContractForm } from '../../ui/form.js';
import { Badge, Time } from '../../ui/format.js';
import { EmptyState, Panel } from '../../ui/page.js';
import type { Picked } from '../../ui/record-picker.js';
import { DataTable, type TableColumn } from '../../ui/table.js';
import { notify } from '../../ui/toast.js';
import { activeOf } from '../list-search.js';
import { ListFilters } from '../list-filters.js';
import { UserPicker } from '../pickers.js';
import { patchMembership, ROLE_HINT } from './memberships.js';

const route = getRouteApi('/organizations/$organizationId');

function AddMemberForm(props: { readonly organization: SvcOrganization; readonly close: () => void }) {
  const client = useQueryClient();
  const [user, setUser] = useState<Picked | null>(null);
  const form = useContractForm({
    schema: createMembershipBodySchema,
    initial: { userId: '', role: 'member' },
    toBody: (values) => ({ organizationId: props.organization.id, ...values }),
    submit: async (body) => {
      const membership = await apiSend('POST', 'auth', '/memberships', body, svcMembershipSchema);
      await invalidate(client, 'auth', ['/organizations', '/users']);
      notify.success(`${user?.label ?? membership.userId} is a member, as ${membership.role}.`);
      props.close();
    },
  });
  const userField = form.field('userId');
  return (
    <DialogForm form={form} submitLabel="Add member" onCancel={props.close}>
      <UserPicker
        label="User"
        query={{ active: true }}
        value={user}
        onChange={(picked) => {
          setUser(picked);
          userField.onChange(picked?.id ?? '');
        }}
        errorMessage={userField.errorMessage === undefined ? undefined : 'Choose a user.'}
        isRequired
      />
      <TextField label="Role" field={form.field('role')} isRequired description={ROLE_HINT} />
      <p className="hint">A user who was a member before is reactivated with this role.</p>
    </DialogForm>
  );
}

function ChangeRoleForm(props: { readonly membership: SvcMembership; readonly close: () => void }) {
  const client = useQueryClient();
  const form = useContractForm({
    schema: updateMembershipBodySchema,
    initial: { role: props.membership.role },
    toBody: (values) => values,
    submit: async (body) => {
      const saved = await patchMembership(props.membership, body);
      await invalidate(client, 'auth', ['/organizations', '/users']);
      notify.success(`The role is ${saved.role} now.`);
      props.close();
    },
  });
  return (
    <DialogForm form={form} submitLabel="Change role" onCancel={props.close}>
      <TextField label="Role" field={form.field('role')} isRequired description={ROLE_HINT} />
      <p className="hint">The new role is in the tokens of the member's next sign-in or refresh.</p>
    </DialogForm>
  );
}

function MemberActions(props: { readonly membership: SvcMembership }) {
  const { membership } = props;
  const refresh = ['/organizations', '/users', '/sessions'];
  // The confirmation shows a refusal itself; the reactivation's toast does.
  const deactivate = useAction({
    run: () => patchMembership(membership, { active: false }),
    refresh,
    success: 'The membership is deactivated.',
    quiet: true,
  });
  const reactivate = useAction({
    run: () => patchMembership(membership, { active: true }),
    refresh,
    success: 'The membership is active again.',
  });
  return (
    <div className="row-actions">
      <ModalDialog title="Change the role" trigger={<Button>Change role</Button>}>
        {(close) => <ChangeRoleForm membership={membership} close={close} />}
      </ModalDialog>
      {membership.active ? (
        <ConfirmButton
          label="Deactivate"
          title="Deactivate this membership?"
          run={() => deactivate.mutateAsync()}
        >
          <p>
            The member's sessions in this organization end now (their refresh and access tokens stop working),
            and they cannot sign in to it until the membership is reactivated. Their account and other
            organizations are untouched.
          </p>
        </ConfirmButton>
      ) : (
        <Button onPress={() => reactivate.mutate()} isPending={reactivate.isPending}>
          Reactivate
        </Button>
      )}
    </div>
  );
}

const COLUMNS: readonly TableColumn<SvcOrganizationMember>[] = [
  {
    id: 'user',
    label: 'Member',
    cell: (member) => (
      <Link to="/users/$userId" params={{ userId: member.userId }}>
        {member.user.displayName}
      </Link>
    ),
    isRowHeader: true,
  },
  { id: 'email', label: 'Email', cell: (member) => member.user.email ?? '—' },
  { id: 'role', label: 'Role', cell: (membership) => membership.role },
  {
    id: 'status',
    label: 'Status',
    cell: (membership) => <Badge on={membership.active} yes="Active" no="Deactivated" />,
  },
  { id: 'created', label: 'Member since', cell: (membership) => <Time iso={membership.createdAt} /> },
  { id: 'actions', label: 'Actions', cell: (membership) => <MemberActions membership={membership} /> },
];

/** The organization's memberships, searchable by the member, with their roles; add, change, deactivate. */
export function MembersPanel(props: { readonly organization: SvcOrganization }) {
  const { organization } = props;
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/organizations/$organizationId' });
  const list = useList(
    'auth',
    `/organizations/${encodeURIComponent(organization.id)}/memberships`,
    svcOrganizationMemberSchema,
    { query: search.q, active: activeOf(search.status) },
  );
  const filtered = search.q !== undefined || search.status !== undefined;
  return (
    <Panel
      title="Members"
      actions={
        <ModalDialog
          title={`Add a member to ${organization.name}`}
          trigger={<Button tone="primary">Add member</Button>}
        >
          {(close) => <AddMemberForm organization={organization} close={close} />}
        </ModalDialog>
      }
    >
      <ListFilters
        search={search}
        label="Search members"
        placeholder="Email or name"
        onChange={(next) => void navigate({ search: (prev) => ({ ...prev, ...next }), replace: true })}
      />
      <DataTable
        label="Members"
        columns={COLUMNS}
        list={list}
        rowKey={(membership) => membership.id}
        empty={
          <EmptyState title={filtered ? 'No member matches these filters.' : 'No members yet.'}>
            {filtered
              ? 'Clear the search or the status filter.'
              : 'Add a user who already has an account, or invite someone by email.'}
          </EmptyState>
        }
      />
    </Panel>
  );
}

import {
  createInvitationBodySchema,
  INVITATION_STATUSES,
  svcEmailInvitationSchema,
  type InvitationStatusName,
  type SvcEmailInvitation,
  type SvcOrganization,
} from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { apiSend } from '../../api/client.js';
import { invalidate, useAction, useList } from '../../data/queries.js';
import { Button } from '../../ui/button.js';
import { ConfirmButton, ModalDialog } from '../../ui/dialog.js';
import { SelectField, TextField } from '../../ui/fields.js';
import { DialogForm } from '../../ui/dialog-form.js';
import { useContractForm } from '../../ui/form.js';
import { Age, Time } from '../../ui/format.js';
import { EmptyState, Panel } from '../../ui/page.js';
import { DataTable, type TableColumn } from '../../ui/table.js';
import { notify } from '../../ui/toast.js';
import { ROLE_HINT } from './memberships.js';

const route = getRouteApi('/organizations/$organizationId');

const STATUS_LABELS: Readonly<Record<InvitationStatusName, string>> = {
  pending: 'Pending',
  accepted: 'Accepted',
  revoked: 'Revoked',
  expired: 'Expired',
};

type StatusChoice = InvitationStatusName | 'any';

const STATUS_CHOICES: readonly { readonly id: StatusChoice; readonly label: string }[] = [
  { id: 'any', label: 'Any' },
  ...INVITATION_STATUSES.map((status) => ({ id: status, label: STATUS_LABELS[status] })),
];

const invitationPath = (invitation: SvcEmailInvitation, action: 'resend' | 'revoke') =>
  `/invitations/${encodeURIComponent(invitation.id)}/${action}`;

function InviteForm(props: { readonly organization: SvcOrganization; readonly close: () => void }) {
  const client = useQueryClient();
  const path = `/organizations/${encodeURIComponent(props.organization.id)}/invitations`;
  const form = useContractForm({
    schema: createInvitationBodySchema,
    initial: { email: '', role: 'member' },
    toBody: (values) => values,
    submit: async (body) => {
      const invitation = await apiSend('POST', 'auth', path, body, svcEmailInvitationSchema);
      await invalidate(client, 'auth', [path]);
      notify.success(`Invited ${invitation.email}.`, 'The invitation email is on its way.');
      props.close();
    },
  });
  return (
    <DialogForm form={form} submitLabel="Send invitation" onCancel={props.close}>
      <TextField label="Email" type="email" field={form.field('email')} isRequired autoComplete="off" />
      <TextField label="Role" field={form.field('role')} isRequired description={ROLE_HINT} />
      <p className="hint">
        The email's link lets them sign in, or sign up, and become a member with this role. It works until the
        invitation expires or is revoked; a resend sends a new link and the old one stops working.
      </p>
    </DialogForm>
  );
}

function InvitationActions(props: { readonly invitation: SvcEmailInvitation }) {
  const { invitation } = props;
  const refresh = [`/organizations/${encodeURIComponent(invitation.organizationId)}/invitations`];
  const resend = useAction({
    run: () =>
      apiSend('POST', 'auth', invitationPath(invitation, 'resend'), undefined, svcEmailInvitationSchema),
    refresh,
    success: `Sent the invitation to ${invitation.email} again.`,
  });
  const revoke = useAction({
    run: () => apiSend('POST', 'auth', invitationPath(invitation, 'revoke'), {}, svcEmailInvitationSchema),
    refresh,
    success: `Revoked the invitation of ${invitation.email}.`,
    quiet: true,
  });
  if (invitation.status !== 'pending') return null;
  return (
    <div className="row-actions">
      <Button onPress={() => resend.mutate()} isPending={resend.isPending}>
        Resend
      </Button>
      <ConfirmButton
        label="Revoke"
        title={`Revoke the invitation of ${invitation.email}?`}
        run={() => revoke.mutateAsync()}
      >
        <p>
          Its link stops working now and cannot be accepted. To invite {invitation.email} again, send a new
          one.
        </p>
      </ConfirmButton>
    </div>
  );
}

const COLUMNS: readonly TableColumn<SvcEmailInvitation>[] = [
  { id: 'email', label: 'Email', cell: (invitation) => invitation.email, isRowHeader: true },
  { id: 'role', label: 'Role', cell: (invitation) => invitation.role },
  {
    id: 'status',
    label: 'Status',
    cell: (invitation) => (
      <span className={invitation.status === 'pending' ? 'badge badge-on' : 'badge'}>
        {STATUS_LABELS[invitation.status]}
      </span>
    ),
  },
  {
    id: 'sent',
    label: 'Sent',
    cell: (invitation) => (
      <>
        <Age iso={invitation.resentAt ?? invitation.createdAt} />
        {invitation.resentAt !== null && <span className="cell-detail muted">resent</span>}
      </>
    ),
  },
  { id: 'expires', label: 'Expires', cell: (invitation) => <Time iso={invitation.expiresAt} /> },
  { id: 'actions', label: 'Actions', cell: (invitation) => <InvitationActions invitation={invitation} /> },
];

/** The organization's email invitations, newest first, of the status in the link: invite, resend, revoke. */
export function InvitationsPanel(props: { readonly organization: SvcOrganization }) {
  const { organization } = props;
  const { invitationStatus } = route.useSearch();
  const navigate = useNavigate({ from: '/organizations/$organizationId' });
  const list = useList(
    'auth',
    `/organizations/${encodeURIComponent(organization.id)}/invitations`,
    svcEmailInvitationSchema,
    { status: invitationStatus },
  );
  return (
    <Panel
      title="Invitations"
      actions={
        <ModalDialog
          title={`Invite someone to ${organization.name}`}
          trigger={<Button tone="primary">Invite</Button>}
        >
          {(close) => <InviteForm organization={organization} close={close} />}
        </ModalDialog>
      }
    >
      <div className="filters">
        <SelectField<StatusChoice>
          label="Status"
          field={{
            name: 'invitationStatus',
            value: invitationStatus ?? 'any',
            onChange: (status) =>
              void navigate({
                search: (prev) => ({ ...prev, invitationStatus: status === 'any' ? undefined : status }),
                replace: true,
              }),
            errorMessage: undefined,
          }}
          choices={STATUS_CHOICES}
        />
      </div>
      <DataTable
        label="Invitations"
        columns={COLUMNS}
        list={list}
        rowKey={(invitation) => invitation.id}
        empty={
          invitationStatus === undefined ? (
            <EmptyState title="No invitations yet.">
              Invite someone by email: they become a member when they accept.
            </EmptyState>
          ) : (
            <EmptyState title={`No ${STATUS_LABELS[invitationStatus].toLowerCase()} invitations.`}>
              Choose another status, or Any.
            </EmptyState>
          )
        }
      />
    </Panel>
  );
}

import {
  APPLICATION_ACCESS_MODES,
  svcApplicationAccessSchema,
  svcApplicationAssignmentSchema,
  type ApplicationAccessMode,
  type AssignmentEffect,
  type SvcApplicationAssignment,
  type SvcClient,
} from '@svc/contract';
import { useEffect, useState } from 'react';
import { apiSend, noBody } from '../../api/client.js';
import { useAction, useRecord, wholeList } from '../../data/queries.js';
import { Button } from '../../ui/button.js';
import { ConfirmButton } from '../../ui/dialog.js';
import { RadioField } from '../../ui/fields.js';
import { Age, Badge, Id } from '../../ui/format.js';
import { EmptyState, Panel } from '../../ui/page.js';
import type { Picked } from '../../ui/record-picker.js';
import { DataTable, type TableColumn } from '../../ui/table.js';
import { OrganizationPicker, UserPicker } from '../pickers.js';
import { AccessCheck } from './access-check.js';
import { ACCESS_MODE_DESCRIPTIONS, ACCESS_MODE_LABELS } from './access-modes.js';
import { applicationPath } from './client-paths.js';

/** What POST …/access-mode answers: the application and its mode now. */
const modeAnswer = svcApplicationAccessSchema.pick({ applicationId: true, clientId: true, mode: true });

const MODE_CHOICES = APPLICATION_ACCESS_MODES.map((mode) => ({
  id: mode,
  label: ACCESS_MODE_LABELS[mode],
  description: ACCESS_MODE_DESCRIPTIONS[mode],
}));

/**
 * Who an assignment names, as the list answers it: the user's name and email, the organization's name
 * (a role's, with the role), a group's, service account's or agent's name; the id of one that is gone.
 */
function PrincipalName(props: { readonly assignment: SvcApplicationAssignment }) {
  const { principal, principalId, organizationId, roleKey } = props.assignment;
  const id = principalId ?? organizationId;
  return (
    <>
      {principal?.name ?? (id === null ? '—' : <Id value={id} />)}
      {principal?.email && <span className="muted"> {principal.email}</span>}
      {roleKey !== null && <span className="muted"> (role {roleKey})</span>}
    </>
  );
}

function RemoveAssignment(props: {
  readonly client: SvcClient;
  readonly assignment: SvcApplicationAssignment;
}) {
  const { client, assignment } = props;
  const action = useAction({
    run: () =>
      apiSend(
        'DELETE',
        'auth',
        `${applicationPath(client.id)}/assignments/${encodeURIComponent(assignment.id)}`,
        undefined,
        noBody,
      ),
    refresh: [applicationPath(client.id)],
    success: 'Removed the assignment.',
    quiet: true,
  });
  return (
    <ConfirmButton
      label="Remove"
      title="Remove this assignment?"
      triggerTone="quiet"
      run={() => action.mutateAsync()}
    >
      <p>
        {assignment.effect === 'allow'
          ? `Who this allow admitted to ${client.name} is refused from their next sign-in or refresh, unless another allow admits them.`
          : `Who this deny kept out of ${client.name} may use it again if the access mode or another allow admits them.`}
      </p>
    </ConfirmButton>
  );
}

function AddAssignment(props: { readonly client: SvcClient }) {
  const { client } = props;
  const [type, setType] = useState<'user' | 'organization'>('user');
  const [effect, setEffect] = useState<AssignmentEffect>('allow');
  const [principal, setPrincipal] = useState<Picked | null>(null);
  const action = useAction({
    run: () =>
      apiSend(
        'POST',
        'auth',
        `${applicationPath(client.id)}/assignments`,
        { principalType: type, principalId: principal?.id, effect },
        svcApplicationAssignmentSchema,
      ),
    refresh: [applicationPath(client.id)],
    success: () => `${effect === 'allow' ? 'Allowed' : 'Denied'} ${principal?.label ?? ''}.`,
    onSuccess: () => setPrincipal(null),
  });
  const pickerProps = {
    label: type === 'user' ? 'User' : 'Organization',
    value: principal,
    onChange: setPrincipal,
  };
  return (
    <div className="assignment-form">
      <h3>Add an assignment</h3>
      <div className="filters">
        <RadioField<'user' | 'organization'>
          label="Who"
          field={{
            name: 'principalType',
            value: type,
            onChange: (next) => {
              setType(next);
              setPrincipal(null);
            },
            errorMessage: undefined,
          }}
          choices={[
            { id: 'user', label: 'A user' },
            { id: 'organization', label: 'An organization' },
          ]}
        />
        <RadioField<AssignmentEffect>
          label="Effect"
          field={{ name: 'effect', value: effect, onChange: setEffect, errorMessage: undefined }}
          choices={[
            { id: 'allow', label: 'Allow' },
            { id: 'deny', label: 'Deny (wins over every allow)' },
          ]}
        />
        {type === 'user' ? <UserPicker {...pickerProps} /> : <OrganizationPicker {...pickerProps} />}
        <Button
          onPress={() => action.mutate(undefined)}
          isDisabled={principal === null}
          isPending={action.isPending}
        >
          Add assignment
        </Button>
      </div>
    </div>
  );
}

function AccessModeChoice(props: { readonly client: SvcClient; readonly mode: ApplicationAccessMode }) {
  const { client, mode } = props;
  const [choice, setChoice] = useState(mode);
  useEffect(() => setChoice(mode), [mode]);
  const action = useAction({
    run: (next: ApplicationAccessMode) =>
      apiSend('POST', 'auth', `${applicationPath(client.id)}/access-mode`, { mode: next }, modeAnswer),
    refresh: ['/clients', applicationPath(client.id)],
    success: (_result, next) => `${client.name} is now open to: ${ACCESS_MODE_LABELS[next].toLowerCase()}.`,
    quiet: true,
  });
  return (
    <div>
      <RadioField<ApplicationAccessMode>
        label="Who may use it"
        field={{ name: 'mode', value: choice, onChange: setChoice, errorMessage: undefined }}
        choices={MODE_CHOICES}
      />
      <ConfirmButton
        label="Change access"
        title={`Change who may use ${client.name}?`}
        tone="primary"
        isDisabled={choice === mode}
        run={() => action.mutateAsync(choice)}
      >
        <p>
          From {ACCESS_MODE_LABELS[mode].toLowerCase()} to {ACCESS_MODE_LABELS[choice].toLowerCase()}:{' '}
          {ACCESS_MODE_DESCRIPTIONS[choice]} The change holds at every user&apos;s next sign-in, code exchange
          and refresh, on every node.
        </p>
      </ConfirmButton>
    </div>
  );
}

/**
 * Application access: the mode, the allow and deny assignments (of users and organizations: the API's
 * other principal types are listed but made elsewhere), and a check of what a user would get.
 */
export function ApplicationAccess(props: { readonly client: SvcClient }) {
  const { client } = props;
  const access = useRecord('auth', `${applicationPath(client.id)}/assignments`, svcApplicationAccessSchema);
  const columns: readonly TableColumn<SvcApplicationAssignment>[] = [
    {
      id: 'principal',
      label: 'Who',
      cell: (assignment) => <PrincipalName assignment={assignment} />,
      isRowHeader: true,
    },
    { id: 'type', label: 'Kind', cell: (assignment) => assignment.principalType.replace('_', ' ') },
    {
      id: 'effect',
      label: 'Effect',
      cell: (assignment) => <Badge on={assignment.effect === 'allow'} yes="Allow" no="Deny" />,
    },
    { id: 'created', label: 'Added', cell: (assignment) => <Age iso={assignment.createdAt} /> },
    {
      id: 'actions',
      label: 'Actions',
      cell: (assignment) => <RemoveAssignment client={client} assignment={assignment} />,
    },
  ];
  return (
    <>
      <Panel title="Access">
        {access.data !== undefined && <AccessModeChoice client={client} mode={access.data.mode} />}
        <h3>Assignments</h3>
        <DataTable
          label="Assignments"
          columns={columns}
          list={wholeList(access, access.data?.data)}
          rowKey={(assignment) => assignment.id}
          empty={
            <EmptyState title="No assignments.">
              Allow users or organizations below when the mode admits only selected ones; a deny keeps someone
              out in any mode.
            </EmptyState>
          }
        />
        <AddAssignment client={client} />
      </Panel>
      <AccessCheck client={client} />
    </>
  );
}

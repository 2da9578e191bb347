import { createFgaGrantBodySchema, svcFgaGrantSchema, type SvcFgaGrant } from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { apiSend, noBody } from '../../api/client.js';
import { invalidate, useAction, useList } from '../../data/queries.js';
import { Button } from '../../ui/button.js';
import { ConfirmButton, ModalDialog } from '../../ui/dialog.js';
import { DialogForm } from '../../ui/dialog-form.js';
import { SelectField } from '../../ui/fields.js';
import { useContractForm } from '../../ui/form.js';
import { Time } from '../../ui/format.js';
import { EmptyState, Panel } from '../../ui/page.js';
import { DataTable, type TableColumn } from '../../ui/table.js';
import { notify } from '../../ui/toast.js';
import {
  fgaPaths,
  nameOf,
  resourceChoices,
  roleChoices,
  useResources,
  useRoles,
  useSubjects,
} from './fga-data.js';
import { managedByWords, SUBJECT_TYPE_LABELS } from './subject-words.js';

/** The subjects a grant or a check can name, each with its kind. */
export function useSubjectChoices() {
  const subjects = useSubjects();
  return (subjects.data ?? []).map((subject) => ({
    id: subject.id,
    label: `${subject.name} (${SUBJECT_TYPE_LABELS[subject.type]})`,
  }));
}

function GrantForm(props: { readonly resourceId: string | undefined; readonly close: () => void }) {
  const client = useQueryClient();
  const subjects = useSubjectChoices();
  const roles = useRoles();
  const resources = useResources();
  const form = useContractForm({
    schema: createFgaGrantBodySchema,
    initial: { subjectId: '', roleId: '', resourceId: props.resourceId ?? '' },
    toBody: (values) => values,
    submit: async (body) => {
      await apiSend('POST', 'fga', fgaPaths.grants, body, svcFgaGrantSchema);
      await invalidate(client, 'fga', [fgaPaths.grants]);
      notify.success('Granted the role.');
      props.close();
    },
  });
  return (
    <DialogForm form={form} submitLabel="Grant" onCancel={props.close}>
      <SelectField label="Subject" field={form.field('subjectId')} choices={subjects} />
      <SelectField label="Role" field={form.field('roleId')} choices={roleChoices(roles.data)} />
      <SelectField
        label="On resource"
        field={form.field('resourceId')}
        description="And everything below it."
        choices={resourceChoices(resources.data)}
      />
    </DialogForm>
  );
}

function RevokeGrant(props: { readonly grant: SvcFgaGrant; readonly label: string }) {
  const { grant } = props;
  const revoke = useAction({
    surface: 'fga',
    run: () => apiSend('DELETE', 'fga', fgaPaths.grant(grant.id), undefined, noBody),
    refresh: [fgaPaths.grants],
    success: 'Revoked the grant.',
    quiet: true,
  });
  if (grant.managedBy !== 'operator') return <span className="muted">Managed by its source</span>;
  return (
    <ConfirmButton
      label="Revoke"
      title="Revoke this grant?"
      tone="danger"
      run={() => revoke.mutateAsync(undefined)}
    >
      <p>{props.label} loses the role here and below at once; other grants they hold stay.</p>
    </ConfirmButton>
  );
}

/** Grants, of one resource or all, with who holds them, the role, and who made them. */
function GrantsTable(props: { readonly resourceId: string | undefined }) {
  const list = useList('fga', fgaPaths.grants, svcFgaGrantSchema, { resourceId: props.resourceId });
  const subjects = useSubjects();
  const roles = useRoles();
  const resources = useResources();
  const subjectName = (grant: SvcFgaGrant) =>
    `${nameOf(subjects.data, grant.subject.id)} (${SUBJECT_TYPE_LABELS[grant.subject.type]})`;
  const columns: readonly TableColumn<SvcFgaGrant>[] = [
    { id: 'subject', label: 'Subject', cell: subjectName, isRowHeader: true },
    { id: 'role', label: 'Role', cell: (grant) => nameOf(roles.data, grant.roleId) },
    ...(props.resourceId === undefined
      ? [
          {
            id: 'resource',
            label: 'On',
            cell: (grant: SvcFgaGrant) => nameOf(resources.data, grant.resourceId),
          },
        ]
      : []),
    {
      id: 'by',
      label: 'Granted by',
      cell: (grant) =>
        grant.managedBy === 'operator' ? (
          managedByWords(grant.managedBy)
        ) : (
          <span className="badge">{managedByWords(grant.managedBy)}</span>
        ),
    },
    { id: 'created', label: 'Granted', cell: (grant) => <Time iso={grant.createdAt} /> },
    {
      id: 'actions',
      label: 'Actions',
      cell: (grant) => <RevokeGrant grant={grant} label={subjectName(grant)} />,
    },
  ];
  return (
    <DataTable
      label={props.resourceId === undefined ? 'Grants' : 'Grants on this resource'}
      columns={columns}
      list={list}
      rowKey={(grant) => grant.id}
      empty={
        <EmptyState title="No grants.">
          Grant a role to a user, group, service account or agent on a resource.
        </EmptyState>
      }
    />
  );
}

function GrantButton(props: { readonly resourceId: string | undefined }) {
  return (
    <ModalDialog title="Grant a role" trigger={<Button tone="primary">Grant a role</Button>}>
      {(close) => <GrantForm resourceId={props.resourceId} close={close} />}
    </ModalDialog>
  );
}

/** The grants made on one resource (its inherited ones are the access tester's to explain). */
export function ResourceGrants(props: { readonly resourceId: string }) {
  return (
    <>
      <div className="panel-header">
        <h3>Grants on this resource</h3>
        <GrantButton resourceId={props.resourceId} />
      </div>
      <GrantsTable resourceId={props.resourceId} />
    </>
  );
}

/** Every grant, newest first. */
export function GrantsPanel() {
  return (
    <Panel title="Grants" actions={<GrantButton resourceId={undefined} />}>
      <p className="hint">
        A grant gives a subject a role on a resource and everything below it. Grants made by a SCIM
        connection&apos;s mapping rules are managed by the connection: change the rule, not the grant. Which
        operator made or revoked a grant is in the{' '}
        <Link to="/audit" search={{ kind: 'fga.grant.*' }}>
          audit log
        </Link>
        .
      </p>
      <GrantsTable resourceId={undefined} />
    </Panel>
  );
}

import {
  createScopeDisplayNameBodySchema,
  svcScopeDisplayNameDeleteResultSchema,
  svcScopeDisplayNameSchema,
  updateScopeDisplayNameBodySchema,
  type SvcScopeDisplayName,
} from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiSend } from '../../api/client.js';
import { invalidate, useAction, useRecord, wholeList } from '../../data/queries.js';
import { Button } from '../../ui/button.js';
import { ConfirmButton, ModalDialog } from '../../ui/dialog.js';
import { TextField } from '../../ui/fields.js';
import { useContractForm } from '../../ui/form.js';
import { EmptyState } from '../../ui/page.js';
import { DataTable, type TableColumn } from '../../ui/table.js';
import { notify } from '../../ui/toast.js';
import { DialogButtons, ErrorText } from '../../ui/form-parts.js';

const PATH = '/scope-display-names';
const entryPath = (entry: SvcScopeDisplayName) => `${PATH}/${encodeURIComponent(entry.id)}`;
const listSchema = z.object({ data: z.array(svcScopeDisplayNameSchema) });

/** The create form (`scope` set) or the edit form of an entry: a display name and an optional description. */
function EntryForm(props: { readonly entry?: SvcScopeDisplayName; readonly close: () => void }) {
  const { entry, close } = props;
  const client = useQueryClient();
  const form = useContractForm({
    schema: entry === undefined ? createScopeDisplayNameBodySchema : updateScopeDisplayNameBodySchema,
    initial: {
      scope: entry?.scope ?? '',
      displayName: entry?.displayName ?? '',
      description: entry?.description ?? '',
    },
    toBody: (values) =>
      entry === undefined ? values : { displayName: values.displayName, description: values.description },
    submit: async (body) => {
      const saved = await apiSend(
        entry === undefined ? 'POST' : 'PUT',
        'auth',
        entry === undefined ? PATH : entryPath(entry),
        body,
        svcScopeDisplayNameSchema,
      );
      await invalidate(client, 'auth', [PATH]);
      notify.success(`Saved the display name of ${saved.scope}.`);
      close();
    },
  });
  return (
    <form onSubmit={form.onSubmit} noValidate>
      <div className="dialog-body">
        {entry === undefined && (
          <TextField
            label="Scope"
            field={form.field('scope')}
            isRequired
            description="The scope exactly as clients ask for it, such as invoices:read."
          />
        )}
        <TextField
          label="Display name"
          field={form.field('displayName')}
          isRequired
          description="What consent and grant lists call the scope, up to 100 characters."
        />
        <TextField
          label="Description"
          multiline
          field={form.field('description')}
          description="Optional: a sentence under the name, up to 500 characters. Empty removes it."
        />
        <ErrorText message={form.formError} />
      </div>
      <DialogButtons close={close} pending={form.pending}>
        Save
      </DialogButtons>
    </form>
  );
}

function EntryActions(props: { readonly entry: SvcScopeDisplayName }) {
  const { entry } = props;
  const remove = useAction({
    run: () => apiSend('DELETE', 'auth', entryPath(entry), undefined, svcScopeDisplayNameDeleteResultSchema),
    refresh: [PATH],
    success: `Removed the display name of ${entry.scope}.`,
    quiet: true,
  });
  if (entry.ownership === 'code') {
    return <span className="hint">Set in code (createSvc scopeDisplayNames): change it there.</span>;
  }
  return (
    <div className="row-actions">
      <ModalDialog title={`Edit the name of ${entry.scope}`} trigger={<Button tone="quiet">Edit</Button>}>
        {(close) => <EntryForm entry={entry} close={close} />}
      </ModalDialog>
      <ConfirmButton
        label="Remove"
        title={`Remove the display name of ${entry.scope}?`}
        triggerTone="quiet"
        run={() => remove.mutateAsync(undefined)}
      >
        <p>
          Consent and grant lists show {entry.scope} by its built-in words if it is a standard scope, else as
          the raw scope, from their next view on.
        </p>
      </ConfirmButton>
    </div>
  );
}

const COLUMNS: readonly TableColumn<SvcScopeDisplayName>[] = [
  {
    id: 'scope',
    label: 'Scope',
    cell: (entry) => <code className="id">{entry.scope}</code>,
    isRowHeader: true,
  },
  { id: 'name', label: 'Display name', cell: (entry) => entry.displayName },
  {
    id: 'description',
    label: 'Description',
    cell: (entry) => entry.description ?? <span className="muted">—</span>,
  },
  {
    id: 'owner',
    label: 'Set by',
    cell: (entry) => (entry.ownership === 'code' ? 'The host’s code' : 'An operator'),
  },
  { id: 'actions', label: 'Actions', cell: (entry) => <EntryActions entry={entry} /> },
];

/**
 * What consent, device approval and grant lists call each scope. Entries set in the host's code
 * (`createSvc({ scopeDisplayNames })`) win and are read-only here; an operator's are edited in place.
 */
export function ScopeDisplayNames() {
  const names = useRecord('auth', PATH, listSchema);
  return (
    <>
      <div className="filters">
        <p className="muted">
          A scope without a name here is shown by its built-in words (openid, profile, email, offline_access)
          or as itself.
        </p>
        <ModalDialog title="Name a scope" trigger={<Button>Name a scope</Button>}>
          {(close) => <EntryForm close={close} />}
        </ModalDialog>
      </div>
      <DataTable
        label="Scope display names"
        columns={COLUMNS}
        list={wholeList(names, names.data?.data)}
        rowKey={(entry) => entry.id}
        empty={
          <EmptyState title="No scope has a display name yet.">
            Name the scopes of your APIs, so that users know what they consent to.
          </EmptyState>
        }
      />
    </>
  );
}

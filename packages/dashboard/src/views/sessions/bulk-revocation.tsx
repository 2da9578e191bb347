import { svcAdminSessionRevocationRequestSchema, type SvcAdminSessionRevocationPreview } from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../api/client.js';
import { invalidate } from '../../data/queries.js';
import { Button } from '../../ui/button.js';
import { ModalDialog } from '../../ui/dialog.js';
import { RadioField, TextField } from '../../ui/fields.js';
import { plural } from '../../ui/format.js';
import { useContractForm } from '../../ui/form.js';
import type { Picked } from '../../ui/record-picker.js';
import { useCall } from '../../ui/use-call.js';
import { ClientPicker, OrganizationPicker, UserPicker } from '../pickers.js';
import {
  announceResult,
  executeRevocation,
  previewRevocation,
  previewWords,
  type RevocationSelector,
} from './revocation.js';
import { DialogButtons, ErrorText } from '../../ui/form-parts.js';

type Scope = 'user' | 'organization' | 'client';

const SCOPES = [
  { id: 'user', label: "A user's sessions", description: 'in every application and organization' },
  { id: 'organization', label: "An organization's sessions", description: 'of all its members' },
  { id: 'client', label: "An application's sessions", description: 'of all its users' },
] as const;

function selectorOf(scope: Scope, picked: Picked): RevocationSelector {
  if (scope === 'user') return { userId: picked.id };
  if (scope === 'organization') return { organizationId: picked.id };
  return { clientApplicationId: picked.id };
}

/** What the dialog starts from: the page's own filter, when it has one. */
export interface RevocationStart {
  readonly scope: Scope;
  readonly picked: Picked | null;
}

function RevocationForm(props: { readonly start: RevocationStart; readonly close: () => void }) {
  const client = useQueryClient();
  const [scope, setScope] = useState<Scope>(props.start.scope);
  const [picked, setPicked] = useState<Picked | null>(props.start.picked);
  const [preview, setPreview] = useState<SvcAdminSessionRevocationPreview>();
  const previewCall = useCall();
  const selector = picked === null ? undefined : selectorOf(scope, picked);
  const choose = (next: Picked | null) => {
    setPicked(next);
    setPreview(undefined);
  };
  const check = () =>
    previewCall.run(async () => {
      if (selector !== undefined) setPreview(await previewRevocation(selector));
    });
  const form = useContractForm({
    schema: svcAdminSessionRevocationRequestSchema,
    initial: { reason: '' },
    toBody: ({ reason }) => ({
      ...selector,
      confirm: true,
      expectedMatchedSessions: preview?.matchedSessions,
      reason,
    }),
    submit: async (_body, { reason }) => {
      if (selector === undefined || preview === undefined) return;
      try {
        const result = await executeRevocation(selector, preview, reason.trim());
        await invalidate(client, 'auth', ['/sessions', '/users']);
        announceResult(result);
        props.close();
      } catch (failure) {
        // The sessions changed since the preview (409): the count shown is no longer what would end.
        if (failure instanceof ApiError && failure.status === 409) setPreview(undefined);
        throw failure;
      }
    },
  });
  const pickerProps = { value: picked, onChange: choose, isRequired: true };
  return (
    <form onSubmit={form.onSubmit} noValidate>
      <div className="dialog-body">
        <RadioField<Scope>
          label="Revoke"
          field={{
            name: 'scope',
            value: scope,
            onChange: (next) => {
              setScope(next);
              choose(null);
            },
            errorMessage: undefined,
          }}
          choices={SCOPES}
        />
        {scope === 'user' && <UserPicker label="User" {...pickerProps} />}
        {scope === 'organization' && <OrganizationPicker label="Organization" {...pickerProps} />}
        {scope === 'client' && <ClientPicker label="Application" {...pickerProps} />}
        <div className="form-actions">
          <Button
            onPress={() => void check()}
            isDisabled={selector === undefined}
            isPending={previewCall.pending}
          >
            Preview
          </Button>
        </div>
        <ErrorText message={previewCall.error} />
        {preview !== undefined && (
          <p className="notice notice-warning" role="status">
            {previewWords(preview)} Their applications must sign them in again.
          </p>
        )}
        <TextField
          label="Reason"
          field={form.field('reason')}
          isRequired
          description="Why, for the audit log (for example: laptop reported stolen). Up to 500 characters."
        />
        <ErrorText message={form.formError} />
      </div>
      <DialogButtons
        close={props.close}
        pending={form.pending}
        tone="danger"
        isDisabled={preview === undefined || preview.matchedSessions === 0}
      >
        {preview === undefined ? 'Revoke' : `Revoke ${plural(preview.matchedSessions, 'session')}`}
      </DialogButtons>
    </form>
  );
}

/**
 * Revokes many sessions at once: a user's, an organization's or an application's. The operator previews
 * what the choice matches, gives a reason, and confirms exactly the count the preview showed.
 */
export function BulkRevocation(props: { readonly start: RevocationStart }) {
  return (
    <ModalDialog title="Revoke sessions" trigger={<Button tone="danger">Revoke sessions…</Button>}>
      {(close) => <RevocationForm start={props.start} close={close} />}
    </ModalDialog>
  );
}

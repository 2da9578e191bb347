import { svcUserSchema, updateUserBodySchema, type SvcUser } from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { apiSend } from '../../api/client.js';
import { invalidate, useAction } from '../../data/queries.js';
import { Button } from '../../ui/button.js';
import { ConfirmButton, ModalDialog } from '../../ui/dialog.js';
import { TextField } from '../../ui/fields.js';
import { DialogForm } from '../../ui/dialog-form.js';
import { useContractForm } from '../../ui/form.js';
import { notify } from '../../ui/toast.js';

export const userPath = (user: Pick<SvcUser, 'id'>) => `/users/${encodeURIComponent(user.id)}`;

/** PATCH /users/{id} with `body`; the answer is the user as they are now. */
export function patchUser(user: SvcUser, body: unknown): Promise<SvcUser> {
  return apiSend('PATCH', 'auth', userPath(user), body, svcUserSchema);
}

/** A PATCH of the user behind a confirmation (which shows a refusal, such as the last operator's 409). */
export function usePatchUser(user: SvcUser, success: (saved: SvcUser) => string) {
  return useAction({
    run: (body: unknown) => patchUser(user, body),
    refresh: ['/users', '/sessions', '/organizations'],
    success,
    quiet: true,
  });
}

function EditUserForm(props: { readonly user: SvcUser; readonly close: () => void }) {
  const { user } = props;
  const client = useQueryClient();
  const form = useContractForm({
    schema: updateUserBodySchema,
    initial: { displayName: user.displayName, email: user.email ?? '' },
    // An untouched email is not sent: a user without one keeps none.
    toBody: (values) => ({
      displayName: values.displayName,
      ...(values.email === (user.email ?? '') ? {} : { email: values.email }),
    }),
    submit: async (body) => {
      const saved = await patchUser(user, body);
      await invalidate(client, 'auth', ['/users', '/organizations']);
      notify.success(`Saved ${saved.displayName}.`);
      props.close();
    },
  });
  return (
    <DialogForm form={form} submitLabel="Save" onCancel={props.close}>
      <TextField label="Name" field={form.field('displayName')} isRequired autoComplete="off" />
      <TextField
        label="Email"
        type="email"
        field={form.field('email')}
        autoComplete="off"
        description="A new address is unverified until the user proves it, or you mark it verified."
      />
    </DialogForm>
  );
}

/** The Edit button of a user's page: name and email. */
export function EditUser(props: { readonly user: SvcUser }) {
  return (
    <ModalDialog title={`Edit ${props.user.displayName}`} trigger={<Button>Edit</Button>}>
      {(close) => <EditUserForm user={props.user} close={close} />}
    </ModalDialog>
  );
}

/** Deactivates or reactivates the user (docs/reference/organizations.md "Deactivation"). */
export function UserActivation(props: { readonly user: SvcUser }) {
  const { user } = props;
  const patch = usePatchUser(user, (saved) =>
    saved.active ? `${saved.displayName} can sign in again.` : `${saved.displayName} is deactivated.`,
  );
  if (!user.active) {
    return (
      <ConfirmButton
        key="reactivate"
        label="Reactivate"
        title={`Reactivate ${user.displayName}?`}
        tone="primary"
        run={() => patch.mutateAsync({ active: true })}
      >
        <p>They can sign in again. Sessions that ended when they were deactivated stay ended.</p>
      </ConfirmButton>
    );
  }
  return (
    <ConfirmButton
      key="deactivate"
      label="Deactivate"
      title={`Deactivate ${user.displayName}?`}
      triggerTone="danger"
      run={() => patch.mutateAsync({ active: false })}
    >
      <p>
        Every session of {user.displayName} ends now, in every application and browser: their refresh and
        access tokens stop working at once, and they cannot sign in until reactivated. Their memberships,
        identities and consent grants are kept.
      </p>
    </ConfirmButton>
  );
}

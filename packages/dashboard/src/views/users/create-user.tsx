import { createUserBodySchema, svcUserSchema } from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { apiSend } from '../../api/client.js';
import { invalidate } from '../../data/queries.js';
import { Button } from '../../ui/button.js';
import { ModalDialog } from '../../ui/dialog.js';
import { SwitchField, TextField, type FieldBinding } from '../../ui/fields.js';
import { DialogForm } from '../../ui/dialog-form.js';
import { useContractForm } from '../../ui/form.js';
import { notify } from '../../ui/toast.js';

/** A password an operator sets for a user, which the user is then told. */
export function PasswordField(props: { readonly label: string; readonly field: FieldBinding<string> }) {
  return (
    <TextField
      label={props.label}
      type="password"
      field={props.field}
      isRequired
      autoComplete="new-password"
      description="At least 8 characters. Tell it to the user over a channel you trust, or send a reset email instead."
    />
  );
}

function CreateUserForm(props: { readonly close: () => void }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const form = useContractForm({
    schema: createUserBodySchema,
    initial: { displayName: '', email: '', withPassword: false as boolean, password: '' },
    toBody: ({ withPassword, password, ...values }) => ({
      ...values,
      password: withPassword ? password : null,
    }),
    submit: async (body) => {
      const created = await apiSend('POST', 'auth', '/users', body, svcUserSchema);
      await invalidate(client, 'auth', ['/users']);
      notify.success(`Created ${created.displayName}.`);
      props.close();
      await navigate({ to: '/users/$userId', params: { userId: created.id } });
    },
  });
  return (
    <DialogForm form={form} submitLabel="Create user" onCancel={props.close}>
      <TextField label="Name" field={form.field('displayName')} isRequired autoComplete="off" />
      <TextField label="Email" type="email" field={form.field('email')} isRequired autoComplete="off" />
      <SwitchField
        label="Set a password"
        field={form.field('withPassword')}
        description="Off: the user signs in without a password (an email code, a magic link, SSO), or sets one through a password reset."
      />
      {form.values.withPassword && <PasswordField label="Password" field={form.field('password')} />}
    </DialogForm>
  );
}

/** The "New user" button and its dialog; on success the new user's page opens. */
export function CreateUser() {
  return (
    <ModalDialog title="New user" trigger={<Button tone="primary">New user</Button>}>
      {(close) => <CreateUserForm close={close} />}
    </ModalDialog>
  );
}

import { createUserBodySchema, svcUserSchema } from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { apiSend } from '../../api/client.js';
import { invalidate } from '../../data/queries.js';
import { Button } from '../../ui/button.js';
import { ModalDialog } from '../../ui/dialog.js';
import { SwitchField, TextField } from '../../ui/fields.js';
import { FormActions } from '../../ui/form-actions.js';
import { useContractForm } from '../../ui/form.js';
import { notify } from '../../ui/toast.js';

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
    <form onSubmit={form.onSubmit} noValidate>
      <div className="dialog-body">
        <TextField label="Name" field={form.field('displayName')} isRequired autoComplete="off" />
        <TextField label="Email" type="email" field={form.field('email')} isRequired autoComplete="off" />
        <SwitchField
          label="Set a password"
          field={form.field('withPassword')}
          description="Off: the user signs in without a password (an email code, a magic link, SSO), or sets one through a password reset."
        />
        {form.values.withPassword && (
          <TextField
            label="Password"
            type="password"
            field={form.field('password')}
            isRequired
            autoComplete="new-password"
            description="At least 8 characters. Tell it to the user over a channel you trust."
          />
        )}
      </div>
      <FormActions
        submitLabel="Create user"
        pending={form.pending}
        formError={form.formError}
        onCancel={props.close}
      />
    </form>
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

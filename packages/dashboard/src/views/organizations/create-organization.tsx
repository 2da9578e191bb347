import { createOrganizationBodySchema, svcOrganizationSchema } from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { apiSend } from '../../api/client.js';
import { invalidate } from '../../data/queries.js';
import { Button } from '../../ui/button.js';
import { ModalDialog } from '../../ui/dialog.js';
import { TextField } from '../../ui/fields.js';
import { FormActions } from '../../ui/form-actions.js';
import { useContractForm } from '../../ui/form.js';
import { notify } from '../../ui/toast.js';

function CreateOrganizationForm(props: { readonly close: () => void }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const form = useContractForm({
    schema: createOrganizationBodySchema,
    initial: { name: '', slug: '', primaryDomain: '' },
    toBody: (values) => values,
    submit: async (body) => {
      const created = await apiSend('POST', 'auth', '/organizations', body, svcOrganizationSchema);
      await invalidate(client, 'auth', ['/organizations']);
      notify.success(`Created ${created.name}.`);
      props.close();
      await navigate({ to: '/organizations/$organizationId', params: { organizationId: created.id } });
    },
  });
  return (
    <form onSubmit={form.onSubmit} noValidate>
      <div className="dialog-body">
        <TextField label="Name" field={form.field('name')} isRequired autoComplete="off" />
        <TextField
          label="Slug"
          field={form.field('slug')}
          description="Lowercase letters, digits and hyphens, as in acme-corp. Leave it empty to derive it from the name."
          autoComplete="off"
        />
        <TextField
          label="Primary domain"
          field={form.field('primaryDomain')}
          description="Optional, such as acme.example. Proving the organization owns it is a domain claim."
          autoComplete="off"
        />
      </div>
      <FormActions
        submitLabel="Create organization"
        pending={form.pending}
        formError={form.formError}
        onCancel={props.close}
      />
    </form>
  );
}

/** The "New organization" button and its dialog; on success the new organization's page opens. */
export function CreateOrganization() {
  return (
    <ModalDialog title="New organization" trigger={<Button tone="primary">New organization</Button>}>
      {(close) => <CreateOrganizationForm close={close} />}
    </ModalDialog>
  );
}

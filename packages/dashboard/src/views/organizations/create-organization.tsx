import { createOrganizationBodySchema, svcOrganizationSchema } from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { apiSend } from '../../api/client.js';
import { invalidate } from '../../data/queries.js';
import { Button } from '../../ui/button.js';
import { ModalDialog } from '../../ui/dialog.js';
import { TextField, type FieldBinding } from '../../ui/fields.js';
import { DialogForm } from '../../ui/dialog-form.js';
import { useContractForm } from '../../ui/form.js';
import { notify } from '../../ui/toast.js';

/**
 * An organization's name, slug and primary domain, in the creation and the edit forms; a new one may
 * leave its slug to the name.
 */
export function OrganizationFields(props: {
  readonly field: (name: 'name' | 'slug' | 'primaryDomain') => FieldBinding<string>;
  readonly isNew?: boolean;
}) {
  const { field, isNew = false } = props;
  return (
    <>
      <TextField label="Name" field={field('name')} isRequired autoComplete="off" />
      <TextField
        label="Slug"
        field={field('slug')}
        isRequired={!isNew}
        description={`Lowercase letters, digits and hyphens, as in acme-corp; no other organization may have it.${isNew ? ' Leave it empty to derive it from the name.' : ''}`}
        autoComplete="off"
      />
      <TextField
        label="Primary domain"
        field={field('primaryDomain')}
        description={isNew ? 'Optional, such as acme.example.' : 'Empty it to remove the domain.'}
        autoComplete="off"
      />
    </>
  );
}

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
    <DialogForm form={form} submitLabel="Create organization" onCancel={props.close}>
      <OrganizationFields field={form.field} isNew />
    </DialogForm>
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

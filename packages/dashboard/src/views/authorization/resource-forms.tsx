import {
  createFgaResourceBodySchema,
  svcFgaResourceSchema,
  updateFgaResourceBodySchema,
  type SvcFgaResource,
} from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { apiSend } from '../../api/client.js';
import { invalidate } from '../../data/queries.js';
import { DialogForm } from '../../ui/dialog-form.js';
import { SelectField, TextField } from '../../ui/fields.js';
import { useContractForm } from '../../ui/form.js';
import { notify } from '../../ui/toast.js';
import { fgaPaths, resourceChoices, useResourceTypes, useResources } from './fga-data.js';

const ROOT = '';

/** The resources a resource may sit under: a root, or any other (the server refuses a cycle). */
function useParentChoices(except?: string) {
  const resources = useResources();
  return [
    { id: ROOT, label: 'None: a root' },
    ...resourceChoices(resources.data?.filter((resource) => resource.id !== except)),
  ];
}

export function CreateResourceForm(props: {
  readonly parentId: string | undefined;
  readonly close: () => void;
  readonly created: (resource: SvcFgaResource) => void;
}) {
  const client = useQueryClient();
  const types = useResourceTypes();
  const parents = useParentChoices();
  const form = useContractForm({
    schema: createFgaResourceBodySchema,
    initial: { name: '', typeId: '', parentId: props.parentId ?? ROOT },
    toBody: (values) => ({ ...values, parentId: values.parentId === ROOT ? null : values.parentId }),
    submit: async (body) => {
      const created = await apiSend('POST', 'fga', fgaPaths.resources, body, svcFgaResourceSchema);
      await invalidate(client, 'fga', [fgaPaths.resources]);
      notify.success(`Created ${created.name}.`);
      props.close();
      props.created(created);
    },
  });
  return (
    <DialogForm form={form} submitLabel="Create resource" onCancel={props.close}>
      <TextField label="Name" field={form.field('name')} />
      <SelectField
        label="Type"
        field={form.field('typeId')}
        choices={(types.data ?? []).map((type) => ({ id: type.id, label: `${type.name} (${type.key})` }))}
      />
      <SelectField label="Parent" field={form.field('parentId')} choices={parents} />
    </DialogForm>
  );
}

export function MoveResourceForm(props: { readonly resource: SvcFgaResource; readonly close: () => void }) {
  const { resource } = props;
  const client = useQueryClient();
  const parents = useParentChoices(resource.id);
  const form = useContractForm({
    schema: updateFgaResourceBodySchema,
    initial: { parentId: resource.parentId ?? ROOT },
    toBody: (values) => ({ parentId: values.parentId === ROOT ? null : values.parentId }),
    submit: async (body) => {
      await apiSend('PATCH', 'fga', fgaPaths.resource(resource.id), body, svcFgaResourceSchema);
      await invalidate(client, 'fga', [fgaPaths.resources]);
      notify.success(`Moved ${resource.name}.`);
      props.close();
    },
  });
  return (
    <DialogForm form={form} submitLabel="Move" onCancel={props.close}>
      <p>
        Grants on the resource stay; what it inherits from its old parents ends, and what its new parents
        grant applies at once.
      </p>
      <SelectField label="New parent" field={form.field('parentId')} choices={parents} />
    </DialogForm>
  );
}

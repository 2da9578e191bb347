import { createClientBodySchema, svcCreatedClientSchema, type SvcCreatedClient } from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { apiSend } from '../../api/client.js';
import { invalidate } from '../../data/queries.js';
import { Button } from '../../ui/button.js';
import { ModalDialog } from '../../ui/dialog.js';
import { SelectField, TextField } from '../../ui/fields.js';
import { useContractForm } from '../../ui/form.js';
import { OneTimeSecret } from '../../ui/secret.js';
import { notify } from '../../ui/toast.js';
import { clientBodyFields, ClientFields, scopeWords, type ClientFormValues } from './client-form.js';
import { CLIENT_TEMPLATES, clientTemplate, type ClientTemplateId } from './client-templates.js';
import { DialogButtons, ErrorText } from '../../ui/form-parts.js';

interface CreateValues extends ClientFormValues {
  template: ClientTemplateId;
  clientId: string;
}

function presetOf(id: ClientTemplateId) {
  const { defaults } = clientTemplate(id);
  return { ...defaults, template: id, allowedScopes: scopeWords.format(defaults.allowedScopes) };
}

const INITIAL: CreateValues = {
  clientId: '',
  name: '',
  audience: '',
  redirectUris: '',
  postLogoutRedirectUris: '',
  allowedResources: '',
  ...presetOf('browser'),
};

function CreateForm(props: {
  readonly onCreated: (client: SvcCreatedClient) => void;
  readonly close: () => void;
}) {
  const form = useContractForm({
    schema: createClientBodySchema,
    initial: INITIAL,
    toBody: ({ template: _template, clientId, ...values }) => ({ clientId, ...clientBodyFields(values) }),
    submit: async (body) =>
      props.onCreated(await apiSend('POST', 'auth', '/clients', body, svcCreatedClientSchema)),
  });
  const template = clientTemplate(form.values.template);
  return (
    <form onSubmit={form.onSubmit} noValidate>
      <div className="dialog-body">
        <SelectField<ClientTemplateId>
          label="Kind of application"
          field={{
            ...form.field('template'),
            // A kind sets its defaults; what was typed in the other fields stays.
            onChange: (id) => form.setValues((values) => ({ ...values, ...presetOf(id) })),
          }}
          choices={CLIENT_TEMPLATES}
          description={template.summary}
        />
        <TextField
          label="Client ID"
          field={form.field('clientId')}
          isRequired
          description="What the app sends as client_id: printable ASCII without spaces, such as billing-web. It cannot change later."
        />
        <ClientFields
          field={form.field}
          values={form.values}
          editing={false}
          redirectExample={template.redirectExample}
        />
        <ErrorText message={form.formError} />
      </div>
      <DialogButtons close={props.close} pending={form.pending}>
        Create application
      </DialogButtons>
    </form>
  );
}

/**
 * "Create application": a kind of application (a preset of the create body), the settings, then, for a
 * confidential client, its secret, which the server answers this once.
 */
export function CreateApplication() {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<SvcCreatedClient>();
  const openRecord = (clientId: string) =>
    void navigate({ to: '/applications/$clientId', params: { clientId } });
  const onCreated = (result: SvcCreatedClient) => {
    void invalidate(client, 'auth', ['/clients']);
    notify.success(`Created ${result.name}.`);
    if (result.clientSecret === undefined) {
      setOpen(false);
      openRecord(result.clientId);
    } else setCreated(result);
  };
  return (
    <ModalDialog
      title={created === undefined ? 'Create an application' : `${created.name} is created`}
      isOpen={open}
      isDismissable={created === undefined}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next && created !== undefined) {
          setCreated(undefined);
          openRecord(created.clientId);
        }
      }}
      trigger={<Button tone="primary">Create application</Button>}
    >
      {(close) =>
        created?.clientSecret === undefined ? (
          <CreateForm onCreated={onCreated} close={close} />
        ) : (
          <OneTimeSecret label="Client secret" value={created.clientSecret} onDone={close} />
        )
      }
    </ModalDialog>
  );
}

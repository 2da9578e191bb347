import {
  DOCUMENT_DECIDED_CLIENT_FIELDS,
  svcClientSchema,
  updateClientBodySchema,
  type SvcClient,
} from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { apiSend } from '../../api/client.js';
import { invalidate } from '../../data/queries.js';
import { useContractForm } from '../../ui/form.js';
import { Panel } from '../../ui/page.js';
import { notify } from '../../ui/toast.js';
import { clientPath } from './client-paths.js';
import { clientBodyFields, ClientFields, clientFormValues } from './client-form.js';
import { FormActions } from '../../ui/form-parts.js';

const DOCUMENT_FIELDS: ReadonlySet<string> = new Set(DOCUMENT_DECIDED_CLIENT_FIELDS);

/**
 * The client's settings, saved with PATCH /clients/{clientId}. What a metadata document decides is shown
 * but not sent: the API refuses to change it, since the next fetch of the document would undo it.
 */
export function ApplicationSettings(props: { readonly client: SvcClient }) {
  const { client } = props;
  const queryClient = useQueryClient();
  const fromDocument = client.registration?.method === 'metadata_document';
  const form = useContractForm({
    schema: updateClientBodySchema,
    initial: clientFormValues(client),
    toBody: (values) =>
      Object.fromEntries(
        Object.entries(clientBodyFields(values)).filter(
          ([name]) => !(fromDocument && DOCUMENT_FIELDS.has(name)),
        ),
      ),
    submit: async (body) => {
      await apiSend('PATCH', 'auth', clientPath(client.clientId), body, svcClientSchema);
      await invalidate(queryClient, 'auth', ['/clients']);
      notify.success(`Saved the settings of ${client.name}.`);
    },
  });
  return (
    <Panel title="Settings">
      <form onSubmit={form.onSubmit} noValidate className="settings-form">
        <ClientFields
          field={form.field}
          values={form.values}
          editing
          {...(fromDocument
            ? {
                locked: DOCUMENT_FIELDS,
                lockedReason:
                  'Set by its metadata document: change the document, and Svc reads it again once its copy is stale.',
              }
            : {})}
        />
        <FormActions form={form} submit="Save settings" />
      </form>
    </Panel>
  );
}

import {
  importSsoMetadataBodySchema,
  importSsoMetadataUrlBodySchema,
  svcSsoConnectionSchema,
  type SvcSsoConnection,
} from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FileTrigger } from 'react-aria-components';
import { apiSend } from '../../../api/client.js';
import { invalidate } from '../../../data/queries.js';
import { Button } from '../../../ui/button.js';
import { ModalDialog } from '../../../ui/dialog.js';
import { DialogForm } from '../../../ui/dialog-form.js';
import { RadioField, SwitchField, TextField } from '../../../ui/fields.js';
import { useContractForm } from '../../../ui/form.js';
import { notify } from '../../../ui/toast.js';
import { ssoPaths } from './sso-paths.js';

type Source = 'xml' | 'url';

const SOURCES = [
  {
    id: 'xml',
    label: 'Paste or upload the XML',
    description: 'The metadata file the IdP lets you download.',
  },
  { id: 'url', label: 'Fetch it from a URL', description: "Svc downloads it from the IdP's metadata URL." },
] as const;

interface ImportProps {
  readonly connection: SvcSsoConnection;
  readonly close: () => void;
}

/** After an import: the connection's answers are stale, and the operator is told what changed. */
function useImported(props: ImportProps) {
  const client = useQueryClient();
  return async (saved: SvcSsoConnection) => {
    await invalidate(client, 'auth', [
      ssoPaths.samlConnection(saved.id),
      ssoPaths.samlConnections(saved.organizationId),
    ]);
    notify.success(
      `Imported the metadata of ${saved.idpEntityId ?? 'the IdP'}.`,
      saved.enabled ? 'The connection is enabled.' : 'The connection stays disabled.',
    );
    props.close();
  };
}

/**
 * Whether to enable the connection with the import; an enabled one stays enabled whatever is chosen (an
 * import never disables), so the choice is offered only while it is disabled.
 */
function EnableSwitch(props: {
  readonly connection: SvcSsoConnection;
  readonly field: Parameters<typeof SwitchField>[0]['field'];
}) {
  if (props.connection.enabled) return null;
  return (
    <SwitchField
      label="Enable the connection"
      field={props.field}
      description="Users whose addresses lead here are sent to the IdP from then on."
    />
  );
}

function XmlImport(props: ImportProps) {
  const imported = useImported(props);
  const form = useContractForm({
    schema: importSsoMetadataBodySchema,
    initial: { metadataXml: '', enableConnection: true as boolean },
    toBody: (values) => values,
    submit: async (body) =>
      imported(
        await apiSend(
          'POST',
          'auth',
          `${ssoPaths.samlConnection(props.connection.id)}/metadata`,
          body,
          svcSsoConnectionSchema,
        ),
      ),
  });
  const load = (files: FileList | null) =>
    void files
      ?.item(0)
      ?.text()
      .then((text) => form.field('metadataXml').onChange(text));
  return (
    <DialogForm form={form} submitLabel="Import metadata" onCancel={props.close}>
      <TextField
        label="IdP metadata XML"
        multiline
        field={form.field('metadataXml')}
        isRequired
        placeholder='<EntityDescriptor entityID="…">'
        description="Svc keeps its entity ID, its HTTP-Redirect sign-in URL and its signing certificates."
      />
      <FileTrigger acceptedFileTypes={['.xml', 'application/xml', 'text/xml']} onSelect={load}>
        <Button>Upload a metadata file</Button>
      </FileTrigger>
      <EnableSwitch connection={props.connection} field={form.field('enableConnection')} />
    </DialogForm>
  );
}

function UrlImport(props: ImportProps) {
  const imported = useImported(props);
  const form = useContractForm({
    schema: importSsoMetadataUrlBodySchema,
    initial: { metadataUrl: '', enableConnection: true as boolean },
    toBody: (values) => values,
    submit: async (body) =>
      imported(
        await apiSend(
          'POST',
          'auth',
          `${ssoPaths.samlConnection(props.connection.id)}/metadata-url`,
          body,
          svcSsoConnectionSchema,
        ),
      ),
  });
  return (
    <DialogForm form={form} submitLabel="Fetch and import" onCancel={props.close}>
      <TextField
        label="Metadata URL"
        type="url"
        field={form.field('metadataUrl')}
        isRequired
        placeholder="https://idp.example.com/app/…/sso/saml/metadata"
        description="https only, on a public address; redirects are not followed. Fetched once, now: import again when the IdP's certificate changes."
      />
      <EnableSwitch connection={props.connection} field={form.field('enableConnection')} />
    </DialogForm>
  );
}

/**
 * "Import metadata" (or "Replace metadata"): the IdP's metadata pasted, uploaded or fetched from its URL.
 * A replacement takes the IdP's entity ID, URL and certificates as they are now (a key rollover is two
 * imports: the metadata listing both keys, later the one listing the new key only).
 */
export function ImportMetadata(props: { readonly connection: SvcSsoConnection }) {
  const { connection } = props;
  const [source, setSource] = useState<Source>('xml');
  const replacing = connection.idpEntityId !== null;
  return (
    <ModalDialog
      title={replacing ? 'Replace the IdP metadata' : 'Import the IdP metadata'}
      trigger={
        <Button tone={replacing ? 'secondary' : 'primary'}>
          {replacing ? 'Replace metadata' : 'Import metadata'}
        </Button>
      }
    >
      {(close) => (
        <>
          <div className="dialog-body">
            <RadioField<Source>
              label="Metadata"
              field={{ name: 'source', value: source, onChange: setSource, errorMessage: undefined }}
              choices={SOURCES}
            />
          </div>
          {source === 'xml' ? (
            <XmlImport connection={connection} close={close} />
          ) : (
            <UrlImport connection={connection} close={close} />
          )}
        </>
      )}
    </ModalDialog>
  );
}

import type { SvcSsoConnection } from '@svc/contract';
import { Button } from '../../../ui/button.js';
import { copyToClipboard, CopyField } from '../../../ui/copy-field.js';
import { ErrorText } from '../../../ui/form-parts.js';
import { Panel } from '../../../ui/page.js';
import { useCall } from '../../../ui/use-call.js';
import { spMetadataPath } from './sso-paths.js';

/** The SP metadata document, read as text (the route is public; it answers XML, not JSON). */
async function spMetadataXml(connectionId: string): Promise<string> {
  const response = await fetch(spMetadataPath(connectionId), { credentials: 'same-origin' });
  if (!response.ok)
    throw new Error(`The SP metadata could not be read: the server answered ${response.status}.`);
  return response.text();
}

/**
 * What the IdP's admin configures for this connection (docs/reference/federation.md "Bindings"): the SP
 * entity id (also its metadata's URL), the ACS URL, and the SP metadata document for IdPs that import one.
 */
export function SpDetails(props: { readonly connection: SvcSsoConnection }) {
  const { connection } = props;
  const call = useCall();
  const copyMetadata = () =>
    call.run(async () => copyToClipboard(await spMetadataXml(connection.id), 'the SP metadata'));
  return (
    <Panel title="Give these to the identity provider">
      <CopyField
        label="SP entity ID"
        value={connection.spEntityId}
        description="The audience of its answers (Okta: Audience URI; Entra ID: Identifier)."
      />
      <CopyField
        label="ACS URL"
        value={connection.acsUrl}
        description="Where the IdP posts its answers, by HTTP-POST (Okta: Single sign-on URL; Entra ID: Reply URL)."
      />
      <p className="hint">
        Name ID format: emailAddress, or an email attribute. Sign the response or the assertion (SHA-256);
        encrypted assertions are not supported.
      </p>
      <div className="row-actions">
        <Button onPress={() => void copyMetadata()} isPending={call.pending}>
          Copy SP metadata
        </Button>
        <a className="button button-quiet" href={connection.spEntityId} target="_blank" rel="noreferrer">
          Open SP metadata
        </a>
      </div>
      <ErrorText message={call.error} />
    </Panel>
  );
}

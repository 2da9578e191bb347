import { svcSsoConnectionSchema, type SvcSsoConnection } from '@svc/contract';
import { getRouteApi, Link } from '@tanstack/react-router';
import { apiSend } from '../../../api/client.js';
import { useAction, useRecord } from '../../../data/queries.js';
import { Button } from '../../../ui/button.js';
import { ConfirmButton } from '../../../ui/dialog.js';
import { Badge, Id, Time } from '../../../ui/format.js';
import { Facts, Loading, Page, Panel } from '../../../ui/page.js';
import { IdentityProviderPanel, SamlAttributeMapping } from './saml-identity-provider.js';
import { SamlStatus } from './saml-status.js';
import { SpDetails } from './sp-details.js';
import { ssoPaths } from './sso-paths.js';
import { TrySignIn } from './try-sign-in.js';

const route = getRouteApi('/organizations/$organizationId/saml/$connectionId');

function backTo(organizationId: string) {
  return (
    <Link to="/organizations/$organizationId" params={{ organizationId }} search={{ tab: 'sso' }}>
      ← Single sign-on
    </Link>
  );
}

/** Enable (once the metadata is in) or disable, the latter behind what it changes for users. */
function SamlActivation(props: { readonly connection: SvcSsoConnection }) {
  const { connection } = props;
  const action = useAction({
    run: (enable: boolean) =>
      apiSend(
        'POST',
        'auth',
        `${ssoPaths.samlConnection(connection.id)}/${enable ? 'enable' : 'disable'}`,
        undefined,
        svcSsoConnectionSchema,
      ),
    refresh: [ssoPaths.samlConnection(connection.id), ssoPaths.samlConnections(connection.organizationId)],
    success: (saved) => `${saved.displayName} is ${saved.enabled ? 'enabled' : 'disabled'}.`,
    quiet: true,
  });
  if (!connection.enabled) {
    return (
      <Button
        tone="primary"
        isDisabled={connection.idpEntityId === null}
        isPending={action.isPending}
        onPress={() => action.mutate(true)}
      >
        Enable
      </Button>
    );
  }
  return (
    <ConfirmButton
      label="Disable"
      title={`Disable ${connection.displayName}?`}
      triggerTone="danger"
      run={() => action.mutateAsync(false)}
    >
      <p>
        From now on, on every node, nobody signs in through this IdP: users whose addresses led here get the
        password step instead, and an answer the IdP sends is refused. Their current sessions go on. Users
        without a password need another way in (a one-time code, a password reset) until it is enabled again.
      </p>
    </ConfirmButton>
  );
}

function SamlConnectionRecord(props: { readonly connection: SvcSsoConnection }) {
  const { connection } = props;
  return (
    <Page
      title={connection.displayName}
      back={backTo(connection.organizationId)}
      description={
        <>
          SAML connection <SamlStatus connection={connection} />
        </>
      }
      actions={
        <>
          <TrySignIn connection={{ kind: 'saml', connection }} />
          <SamlActivation connection={connection} />
        </>
      }
    >
      {connection.idpEntityId === null && (
        <p className="notice notice-warning" role="note">
          A draft: give the IdP the details below, then import its metadata, which enables the connection.
        </p>
      )}
      <SpDetails connection={connection} />
      <IdentityProviderPanel connection={connection} />
      <Panel title="Settings">
        <Facts
          items={[
            ['Connection ID', <Id value={connection.id} />],
            ['Primary domain', connection.primaryDomain ?? '—'],
            ['Create users on first sign-in', <Badge on={connection.autoProvisionUsers} yes="Yes" no="No" />],
            ['Link existing accounts by email', <Badge on={connection.autoLinkByEmail} yes="Yes" no="No" />],
            ['Created', <Time iso={connection.createdAt} />],
          ]}
        />
        <p className="hint">
          Set when the connection was made. Both apply only to addresses in the organization&apos;s verified
          domains (the Domains tab); a primary domain only routes users here.
        </p>
      </Panel>
      <SamlAttributeMapping />
    </Page>
  );
}

/** A SAML connection's page: what the IdP needs, the IdP's metadata, settings and attribute mapping. */
export function SamlConnectionPage() {
  const { organizationId, connectionId } = route.useParams();
  const record = useRecord('auth', ssoPaths.samlConnection(connectionId), svcSsoConnectionSchema);
  if (record.data === undefined) {
    return (
      <Page title="SAML connection" back={backTo(organizationId)}>
        <Loading error={record.error} retry={() => void record.refetch()} />
      </Page>
    );
  }
  return <SamlConnectionRecord connection={record.data} />;
}

import {
  OIDC_MAPPED_CLAIMS,
  svcOidcConnectionSchema,
  updateOidcConnectionBodySchema,
  type SvcOidcConnection,
} from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { apiSend, noBody } from '../../../api/client.js';
import { invalidate, useAction, useRecord } from '../../../data/queries.js';
import { Button } from '../../../ui/button.js';
import { ConfirmButton, ModalDialog } from '../../../ui/dialog.js';
import { DialogForm } from '../../../ui/dialog-form.js';
import { useContractForm } from '../../../ui/form.js';
import { Badge, Id, Time } from '../../../ui/format.js';
import { Facts, Loading, Page, Panel } from '../../../ui/page.js';
import { notify } from '../../../ui/toast.js';
import { CLAIM_LABELS, OidcFields, PROVIDER_LABELS } from './oidc-fields.js';
import { oidcBody, oidcValuesOf } from './oidc-form-values.js';
import { ssoPaths } from './sso-paths.js';
import { TrySignIn } from './try-sign-in.js';

const route = getRouteApi('/organizations/$organizationId/oidc/$connectionId');

function backTo(organizationId: string) {
  return (
    <Link to="/organizations/$organizationId" params={{ organizationId }} search={{ tab: 'sso' }}>
      ← Single sign-on
    </Link>
  );
}

function EditOidcForm(props: { readonly connection: SvcOidcConnection; readonly close: () => void }) {
  const { connection } = props;
  const client = useQueryClient();
  const form = useContractForm({
    schema: updateOidcConnectionBodySchema,
    initial: oidcValuesOf(connection),
    toBody: (values) => oidcBody(values, connection.organizationId ?? '', true),
    submit: async (body) => {
      const saved = await apiSend(
        'PUT',
        'auth',
        ssoPaths.oidcConnection(connection.id),
        body,
        svcOidcConnectionSchema,
      );
      await invalidate(client, 'auth', [ssoPaths.oidcConnections]);
      notify.success(`Saved ${saved.displayName}.`);
      props.close();
    },
  });
  return (
    <DialogForm form={form} submitLabel="Save" onCancel={props.close}>
      <p className="hint">Provider: {PROVIDER_LABELS[connection.providerType]} (it cannot change).</p>
      <OidcFields
        field={form.field}
        values={form.values}
        editing
        secretSet={connection.clientSecretSet || connection.applePrivateKeySet}
        claimDefaults={connection.resolved.claimMapping}
      />
    </DialogForm>
  );
}

/** Edit, enable or disable, delete: what operators may do to a connection they made (not one of the code's). */
function OidcActions(props: { readonly connection: SvcOidcConnection }) {
  const { connection } = props;
  const navigate = useNavigate();
  const refresh = [ssoPaths.oidcConnections];
  const toggle = useAction({
    run: (enable: boolean) =>
      apiSend(
        'POST',
        'auth',
        `${ssoPaths.oidcConnection(connection.id)}/${enable ? 'enable' : 'disable'}`,
        undefined,
        svcOidcConnectionSchema,
      ),
    refresh,
    success: (saved) => `${saved.displayName} is ${saved.enabled ? 'enabled' : 'disabled'}.`,
    quiet: true,
  });
  const remove = useAction({
    run: () => apiSend('DELETE', 'auth', ssoPaths.oidcConnection(connection.id), undefined, noBody),
    refresh,
    success: `Deleted ${connection.displayName}.`,
    quiet: true,
    onSuccess: () =>
      void navigate({
        to: '/organizations/$organizationId',
        params: { organizationId: connection.organizationId ?? '' },
        search: { tab: 'sso' },
      }),
  });
  if (connection.owner === 'code') return <TrySignIn connection={{ kind: 'oidc', connection }} />;
  return (
    <>
      <TrySignIn connection={{ kind: 'oidc', connection }} />
      <ModalDialog title={`Edit ${connection.displayName}`} trigger={<Button>Edit</Button>}>
        {(close) => <EditOidcForm connection={connection} close={close} />}
      </ModalDialog>
      {connection.enabled ? (
        <ConfirmButton
          label="Disable"
          title={`Disable ${connection.displayName}?`}
          run={() => toggle.mutateAsync(false)}
        >
          <p>
            Its button leaves every sign-in page now, on every node, and a sign-in already at the provider
            fails when it comes back. Sessions it started go on; its linked identities are kept for when it is
            enabled again.
          </p>
        </ConfirmButton>
      ) : (
        <Button tone="primary" isPending={toggle.isPending} onPress={() => toggle.mutate(true)}>
          Enable
        </Button>
      )}
      <ConfirmButton
        label="Delete"
        title={`Delete ${connection.displayName}?`}
        triggerTone="danger"
        run={() => remove.mutateAsync()}
      >
        <p>
          The connection and its sealed secrets are deleted, with every identity linked through it: its users
          can no longer sign in through {connection.displayName}, and an account with no other way in is left
          without one. This cannot be undone; a new connection links its users again only as they sign in.
        </p>
      </ConfirmButton>
    </>
  );
}

function OidcConnectionRecord(props: { readonly connection: SvcOidcConnection }) {
  const { connection } = props;
  const { resolved } = connection;
  const organizationId = connection.organizationId;
  return (
    <Page
      title={connection.displayName}
      back={
        organizationId === null ? <Link to="/organizations">← Organizations</Link> : backTo(organizationId)
      }
      description={
        <>
          {PROVIDER_LABELS[connection.providerType]}{' '}
          <Badge on={connection.enabled} yes="Enabled" no="Disabled" />
        </>
      }
      actions={<OidcActions connection={connection} />}
    >
      {connection.owner === 'code' && (
        <p className="notice notice-warning" role="note">
          Set in code (<code>createSvc(&#123; oidc &#125;)</code>): it is read-only here, and every start
          writes it again.
        </p>
      )}
      <Panel title="Connection">
        <Facts
          items={[
            ['Connection ID', <Id value={connection.id} />],
            ['Client ID', <Id value={connection.clientId} />],
            [
              connection.providerType === 'Apple' ? 'Private key' : 'Client secret',
              connection.clientSecretSet || connection.applePrivateKeySet ? 'Set (sealed)' : 'Not set',
            ],
            ['Protocol', resolved.protocol === 'oidc' ? 'OpenID Connect' : 'OAuth with a profile API'],
            ['Scopes', resolved.scopes.join(' ')],
            ['Token endpoint authentication', resolved.clientAuthMethod],
            ['UserInfo', resolved.useUserInfo ? 'Read' : 'Not read'],
            ['Created', <Time iso={connection.createdAt} />],
          ]}
        />
        <h3>Callback URIs</h3>
        <ul className="plain-list">
          {connection.allowedCallbackUris.map((uri) => (
            <li key={uri}>
              <code className="id">{uri}</code>
            </li>
          ))}
        </ul>
      </Panel>
      <Panel title="Endpoints">
        <Facts
          items={[
            ['Discovery document', resolved.discoveryUrl ?? '—'],
            ['Issuer', resolved.issuer ?? 'From the discovery document'],
            ['Authorization', resolved.authorizationEndpoint ?? 'From the discovery document'],
            ['Token', resolved.tokenEndpoint ?? 'From the discovery document'],
            ['UserInfo', resolved.userInfoEndpoint ?? 'From the discovery document'],
            ['JWKS', resolved.jwksUri ?? 'From the discovery document'],
          ].map(([name, value]) => [name ?? '', <code className="id">{value}</code>] as const)}
        />
      </Panel>
      <Panel title="Claim mapping">
        <p className="hint">
          {connection.claimMapping === null
            ? 'The defaults of its provider.'
            : 'Set for this connection; the others are its provider’s defaults.'}
        </p>
        <Facts
          items={OIDC_MAPPED_CLAIMS.map(
            (claim) =>
              [
                CLAIM_LABELS[claim],
                <code className="id">{resolved.claimMapping[claim] ?? '—'}</code>,
              ] as const,
          )}
        />
      </Panel>
    </Page>
  );
}

/** A provider connection's page: what it resolves to, its claim mapping, and what operators may change. */
export function OidcConnectionPage() {
  const { organizationId, connectionId } = route.useParams();
  const record = useRecord('auth', ssoPaths.oidcConnection(connectionId), svcOidcConnectionSchema);
  if (record.data === undefined) {
    return (
      <Page title="Provider connection" back={backTo(organizationId)}>
        <Loading error={record.error} retry={() => void record.refetch()} />
      </Page>
    );
  }
  return <OidcConnectionRecord connection={record.data} />;
}

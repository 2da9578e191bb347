import {
  createOidcConnectionBodySchema,
  OIDC_PROVIDER_TYPES,
  pageSchema,
  svcOidcConnectionSchema,
  type OidcProviderType,
  type SvcOidcConnection,
  type SvcOrganization,
} from '@svc/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { apiGet, apiSend } from '../../../api/client.js';
import { invalidate, wholeList } from '../../../data/queries.js';
import { Button } from '../../../ui/button.js';
import { ModalDialog } from '../../../ui/dialog.js';
import { DialogForm } from '../../../ui/dialog-form.js';
import { SelectField } from '../../../ui/fields.js';
import { useContractForm } from '../../../ui/form.js';
import { Badge, plural, Time } from '../../../ui/format.js';
import { EmptyState, Panel } from '../../../ui/page.js';
import { DataTable, type TableColumn } from '../../../ui/table.js';
import { notify } from '../../../ui/toast.js';
import { OidcFields, PROVIDER_LABELS } from './oidc-fields.js';
import { newOidcValues, oidcBody } from './oidc-form-values.js';
import { ssoPaths } from './sso-paths.js';

const connectionPage = pageSchema(svcOidcConnectionSchema);

/**
 * Every provider connection: the API lists them all, newest first, without an organization filter (a
 * connection is offered on every sign-in page whatever its organization), and there are few, so the
 * console reads every page and picks an organization's itself.
 */
export function useOidcConnections() {
  return useQuery({
    queryKey: ['auth', ssoPaths.oidcConnections, { all: true }] as const,
    queryFn: async () => {
      const all: SvcOidcConnection[] = [];
      let cursor: string | null = null;
      do {
        const page: { data: SvcOidcConnection[]; nextCursor: string | null } = await apiGet(
          'auth',
          ssoPaths.oidcConnections,
          connectionPage,
          { limit: 200, cursor },
        );
        all.push(...page.data);
        cursor = page.nextCursor;
      } while (cursor !== null);
      return all;
    },
  });
}

const COLUMNS: readonly TableColumn<SvcOidcConnection>[] = [
  { id: 'name', label: 'Name', cell: (connection) => connection.displayName, isRowHeader: true },
  { id: 'provider', label: 'Provider', cell: (connection) => PROVIDER_LABELS[connection.providerType] },
  {
    id: 'status',
    label: 'Status',
    cell: (connection) => <Badge on={connection.enabled} yes="Enabled" no="Disabled" />,
  },
  {
    id: 'client',
    label: 'Client ID',
    cell: (connection) => <code className="id">{connection.clientId}</code>,
  },
  {
    id: 'owner',
    label: 'Managed by',
    cell: (connection) => (connection.owner === 'code' ? 'Code (read-only)' : 'Operators'),
  },
  { id: 'created', label: 'Created', cell: (connection) => <Time iso={connection.createdAt} /> },
];

const PROVIDER_CHOICES = OIDC_PROVIDER_TYPES.map((type) => ({ id: type, label: PROVIDER_LABELS[type] }));

function CreateOidcForm(props: { readonly organization: SvcOrganization; readonly close: () => void }) {
  const { organization } = props;
  const client = useQueryClient();
  const navigate = useNavigate();
  const form = useContractForm({
    schema: createOidcConnectionBodySchema,
    initial: newOidcValues('Google'),
    toBody: (values) => oidcBody(values, organization.id, false),
    submit: async (body) => {
      const created = await apiSend('POST', 'auth', ssoPaths.oidcConnections, body, svcOidcConnectionSchema);
      await invalidate(client, 'auth', [ssoPaths.oidcConnections]);
      notify.success(`Created ${created.displayName}.`);
      props.close();
      await navigate({
        to: '/organizations/$organizationId/oidc/$connectionId',
        params: { organizationId: organization.id, connectionId: created.id },
      });
    },
  });
  return (
    <DialogForm form={form} submitLabel="Create connection" onCancel={props.close}>
      <SelectField<OidcProviderType>
        label="Provider"
        field={form.field('providerType')}
        choices={PROVIDER_CHOICES}
      />
      <OidcFields field={form.field} values={form.values} editing={false} />
    </DialogForm>
  );
}

/**
 * The provider connections of the organization: OpenID and social sign-in whose new identities are
 * limited to the organization's verified domains. Like every enabled connection, each is offered on every
 * sign-in page.
 */
export function OidcConnectionsPanel(props: { readonly organization: SvcOrganization }) {
  const { organization } = props;
  const query = useOidcConnections();
  const own = query.data?.filter((connection) => connection.organizationId === organization.id);
  const shared = query.data?.filter((connection) => connection.organizationId === null).length ?? 0;
  return (
    <Panel
      title="Social and OpenID connections"
      actions={
        <ModalDialog
          title={`New provider connection for ${organization.name}`}
          trigger={<Button tone="primary">New provider connection</Button>}
        >
          {(close) => <CreateOidcForm organization={organization} close={close} />}
        </ModalDialog>
      }
    >
      <p className="hint">
        Google, Microsoft, Apple, GitHub or any OpenID provider. Every enabled connection is offered on every
        sign-in page; one of this organization signs a new user in, or links an account, only for an address
        in its verified domains.
        {shared > 0 &&
          (shared === 1
            ? ' One more connection, of no organization, signs anyone in.'
            : ` ${plural(shared, 'more connection')}, of no organization, sign anyone in.`)}
      </p>
      <DataTable
        label="Social and OpenID connections"
        columns={COLUMNS}
        list={wholeList(query, own)}
        rowKey={(connection) => connection.id}
        rowHref={(connection) =>
          `/organizations/${encodeURIComponent(organization.id)}/oidc/${encodeURIComponent(connection.id)}`
        }
        empty={
          <EmptyState title="No provider connections of this organization.">
            Add one with the client ID and secret the provider registered for Svc.
          </EmptyState>
        }
      />
    </Panel>
  );
}

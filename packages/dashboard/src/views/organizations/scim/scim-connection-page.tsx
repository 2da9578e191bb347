import {
  svcOrganizationSchema,
  svcScimConnectionSchema,
  svcScimConnectionWithTokenSchema,
  type SvcScimConnection,
} from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { apiSend } from '../../../api/client.js';
import { invalidate, useAction, useRecord } from '../../../data/queries.js';
import { Button } from '../../../ui/button.js';
import { ConfirmButton, ModalDialog } from '../../../ui/dialog.js';
import { CopyField } from '../../../ui/copy-field.js';
import { DialogButtons, ErrorText } from '../../../ui/form-parts.js';
import { Badge, Id, Time } from '../../../ui/format.js';
import { Facts, Loading, Page, Panel } from '../../../ui/page.js';
import { useCall } from '../../../ui/use-call.js';
import { nameOf, useResources } from '../../authorization/fga-data.js';
import { BOUNDARY_LABELS, scimPaths } from './scim-paths.js';
import { ScimToken } from './scim-token.js';
import { ScimMappingsPanel } from './scim-mappings.js';
import { SyncEventsPanel } from './sync-events.js';

const route = getRouteApi('/organizations/$organizationId/scim/$connectionId');

/** Rotation behind its confirmation, then the new token, shown this once. */
function RotateToken(props: { readonly connection: SvcScimConnection }) {
  const { connection } = props;
  const client = useQueryClient();
  const call = useCall();
  const [token, setToken] = useState<string>();
  const rotate = () =>
    call.run(async () => {
      const rotated = await apiSend(
        'POST',
        'auth',
        `${scimPaths.connection(connection.id)}/token/rotate`,
        undefined,
        svcScimConnectionWithTokenSchema,
      );
      await invalidate(client, 'auth', [scimPaths.connection(connection.id)]);
      setToken(rotated.token);
    });
  return (
    <ModalDialog
      title={token === undefined ? 'Rotate the bearer token?' : 'The new bearer token'}
      isDismissable={token === undefined}
      onOpenChange={(open) => {
        if (!open) {
          setToken(undefined);
          call.clearError();
        }
      }}
      trigger={<Button>Rotate token</Button>}
    >
      {(close) =>
        token === undefined ? (
          <>
            <div className="dialog-body">
              <p>
                The current token stops working now: the identity provider&apos;s requests are refused until
                it is given the new one.
              </p>
            </div>
            <ErrorText message={call.error} />
            <DialogButtons close={close} pending={call.pending} tone="danger" onPress={() => void rotate()}>
              Rotate token
            </DialogButtons>
          </>
        ) : (
          <ScimToken token={token} baseUrl={connection.baseUrl} onDone={close} />
        )
      }
    </ModalDialog>
  );
}

function Activation(props: { readonly connection: SvcScimConnection }) {
  const { connection } = props;
  const toggle = useAction({
    run: () =>
      apiSend(
        'POST',
        'auth',
        `${scimPaths.connection(connection.id)}/${connection.enabled ? 'disable' : 'enable'}`,
        undefined,
        svcScimConnectionSchema,
      ),
    refresh: [scimPaths.connection(connection.id), scimPaths.connections(connection.organizationId)],
    success: connection.enabled
      ? `Disabled ${connection.displayName}.`
      : `Enabled ${connection.displayName}.`,
    quiet: !connection.enabled,
  });
  if (!connection.enabled) {
    return (
      <Button tone="primary" onPress={() => toggle.mutate(undefined)} isPending={toggle.isPending}>
        Enable
      </Button>
    );
  }
  return (
    <ConfirmButton
      label="Disable"
      title={`Disable ${connection.displayName}?`}
      tone="danger"
      run={() => toggle.mutateAsync(undefined)}
    >
      <p>
        Every SCIM request with its token is refused until it is enabled again. The users and grants it made
        stay as they are.
      </p>
    </ConfirmButton>
  );
}

/** A SCIM connection: where the IdP sends its requests, its token, its mapping rules and what it did. */
export function ScimConnectionPage() {
  const { organizationId, connectionId } = route.useParams();
  const organization = useRecord(
    'auth',
    `/organizations/${encodeURIComponent(organizationId)}`,
    svcOrganizationSchema,
  );
  const record = useRecord('auth', scimPaths.connection(connectionId), svcScimConnectionSchema);
  const resources = useResources();
  const back = (
    <Link to="/organizations/$organizationId" params={{ organizationId }} search={{ tab: 'directory-sync' }}>
      ← {organization.data?.name ?? 'Organization'}: directory sync
    </Link>
  );
  const connection = record.data;
  if (connection === undefined) {
    return (
      <Page title="SCIM connection" back={back}>
        <Loading error={record.error} retry={() => void record.refetch()} />
      </Page>
    );
  }
  const boundary = connection.grantBoundary;
  return (
    <Page
      title={connection.displayName}
      description="A SCIM connection"
      back={back}
      actions={
        connection.owner === 'code' ? undefined : (
          <>
            <RotateToken connection={connection} />
            <Activation connection={connection} />
          </>
        )
      }
    >
      <Panel title="Details">
        <Facts
          items={[
            ['ID', <Id value={connection.id} />],
            ['Status', <Badge on={connection.enabled} yes="Enabled" no="Disabled" />],
            [
              'Grant boundary',
              boundary.resourceId === null
                ? BOUNDARY_LABELS.missing
                : `${nameOf(resources.data, boundary.resourceId)} (${BOUNDARY_LABELS[boundary.status]})`,
            ],
            ['Managed by', connection.owner === 'code' ? 'Code (read-only)' : 'Operators'],
            ['Created', <Time iso={connection.createdAt} />],
          ]}
        />
        <CopyField label="SCIM base URL" value={connection.baseUrl} what="the URL" />
      </Panel>
      <ScimMappingsPanel connection={connection} />
      <SyncEventsPanel connection={connection} />
    </Page>
  );
}

import { svcClientSchema, type SvcClient } from '@svc/contract';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useRecord } from '../../data/queries.js';
import { Badge, Id, Time } from '../../ui/format.js';
import { Facts, Loading, Page } from '../../ui/page.js';
import { ApplicationAccess } from './application-access.js';
import { ApplicationSettings } from './application-settings.js';
import { registrationLabel } from './applications-page.js';
import { clientPath } from './client-paths.js';
import { ClientStatus } from './client-status.js';
import { RegistrationPanel } from './registration-panel.js';
import { RotateSecret } from './rotate-secret.js';

const route = getRouteApi('/applications/$clientId');

function ApplicationRecord(props: { readonly client: SvcClient }) {
  const { client } = props;
  const confidential = client.tokenEndpointAuthMethod !== 'none';
  return (
    <Page
      title={client.name}
      back={<Link to="/applications">All applications</Link>}
      description={
        <>
          <Badge on={client.active} yes="Active" no="Deactivated" />{' '}
          <Badge on={client.isFirstParty} yes="First party" no="Third party" />{' '}
          <Badge on={confidential} yes="Confidential" no="Public" />
        </>
      }
      actions={
        <>
          {confidential && <RotateSecret client={client} />}
          <ClientStatus client={client} />
        </>
      }
    >
      <Facts
        items={[
          ['Client ID', <Id key="id" value={client.clientId} />],
          ['Record id', <Id key="record" value={client.id} />],
          ['Origin', registrationLabel(client)],
          ['Created', <Time key="created" iso={client.createdAt} />],
        ]}
      />
      {client.registration !== null && (
        <RegistrationPanel client={client} registration={client.registration} />
      )}
      <ApplicationSettings client={client} />
      <ApplicationAccess client={client} />
    </Page>
  );
}

export function ApplicationPage() {
  const { clientId } = route.useParams();
  const record = useRecord('auth', clientPath(clientId), svcClientSchema);
  if (record.data === undefined) {
    return (
      <Page title="Application" back={<Link to="/applications">All applications</Link>}>
        <Loading error={record.error} retry={() => void record.refetch()} />
      </Page>
    );
  }
  return <ApplicationRecord client={record.data} />;
}

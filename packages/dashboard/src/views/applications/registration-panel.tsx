import type { SvcClient } from '@svc/contract';
import { Id, Time } from '../../ui/format.js';
import { Facts, Panel } from '../../ui/page.js';

type Registration = NonNullable<SvcClient['registration']>;

const orNone = (value: string | null) => (value === null ? <span className="muted">not given</span> : value);

/**
 * What a client that described itself said about itself: dynamic registration (RFC 7591) or its
 * Client ID Metadata Document, with when Svc read the document. Logos are not fetched or shown.
 */
export function RegistrationPanel(props: {
  readonly client: SvcClient;
  readonly registration: Registration;
}) {
  const { client, registration } = props;
  const fromDocument = registration.method === 'metadata_document';
  return (
    <Panel title={fromDocument ? 'Its metadata document' : 'Its registration'}>
      <p className="muted">
        {fromDocument ? (
          <>
            This client is described by the document at <Id value={client.clientId} />. Its name, redirect
            URIs, scopes and device grant are the document&apos;s, read again once Svc&apos;s copy is stale;
            the rest of its settings are yours.
          </>
        ) : (
          'This client registered itself at the registration endpoint (RFC 7591), as a public third-party client, with the metadata below; you may change its settings.'
        )}
      </p>
      <Facts
        items={[
          ['Client URI', orNone(registration.clientUri)],
          ['Logo URI', orNone(registration.logoUri)],
          ['Software id', orNone(registration.softwareId)],
          ['Software version', orNone(registration.softwareVersion)],
          ...(registration.document === null
            ? []
            : ([
                ['Document read', <Time key="fetched" iso={registration.document.fetchedAt} />],
                ['Copy used until', <Time key="fresh" iso={registration.document.freshUntil} />],
              ] as const)),
          [
            'First used',
            registration.firstUsedAt === null ? (
              <span className="muted">
                never: unless it is used (or made first party), it is deleted 7 days after it was last stored
              </span>
            ) : (
              <Time iso={registration.firstUsedAt} />
            ),
          ],
        ]}
      />
    </Panel>
  );
}

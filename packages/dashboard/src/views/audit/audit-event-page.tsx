import { auditEventSchema, type AuditEvent } from '@svc/contract';
import { getRouteApi, Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { Link as AriaLink } from 'react-aria-components';
import { useRecord } from '../../data/queries.js';
import { Id, Time } from '../../ui/format.js';
import { Facts, Loading, Page, Panel } from '../../ui/page.js';
import type { AuditSearch } from './audit-search.js';

const route = getRouteApi('/audit/$eventId');

/** A record's page in the console, by its id; undefined where the console has none. */
type RecordPage = ((id: string) => string) | undefined;

/** Where the console shows a record of each kind an event names (other areas' pages). */
const RECORD_PAGES = {
  user: (id: string) => `/users/${encodeURIComponent(id)}`,
  organization: (id: string) => `/organizations/${encodeURIComponent(id)}`,
  client: (id: string) => `/applications/${encodeURIComponent(id)}`,
} as const;

/** An id, a link to its record's page (when the console has one), and to the events that name it. */
function Named(props: {
  readonly id: string | null;
  readonly page: RecordPage;
  readonly filter: keyof AuditSearch;
  readonly events: string;
}): ReactNode {
  const { id, page } = props;
  if (id === null) return <span className="muted">—</span>;
  return (
    <span className="named">
      {page === undefined ? (
        <Id value={id} />
      ) : (
        <AriaLink href={page(id)}>
          <Id value={id} />
        </AriaLink>
      )}
      <Link to="/audit" search={{ [props.filter]: id }} className="named-events">
        {props.events}
      </Link>
    </span>
  );
}

function actorPage(event: AuditEvent): RecordPage {
  if (event.actorType === 'operator' || event.actorType === 'user') return RECORD_PAGES.user;
  if (event.actorType === 'client') return RECORD_PAGES.client;
  return undefined;
}

/** The record a subject id is, when it is one the event also names as its user, organization or client. */
function subjectPage(event: AuditEvent): RecordPage {
  if (event.subjectId === null) return undefined;
  if (event.subjectId === event.userId) return RECORD_PAGES.user;
  if (event.subjectId === event.organizationId) return RECORD_PAGES.organization;
  if (event.subjectId === event.clientId) return RECORD_PAGES.client;
  return undefined;
}

/** The ids an event names, each with a link to the events that name it too and to its record's page. */
const NAMES: readonly {
  readonly label: string;
  readonly filter: 'actorId' | 'subjectId' | 'userId' | 'organizationId' | 'clientId';
  readonly events: string;
  readonly page: (event: AuditEvent) => RecordPage;
}[] = [
  { label: 'Actor', filter: 'actorId', events: 'Events by this actor', page: actorPage },
  { label: 'Subject', filter: 'subjectId', events: 'Events about this subject', page: subjectPage },
  { label: 'User', filter: 'userId', events: 'Events of this user', page: () => RECORD_PAGES.user },
  {
    label: 'Organization',
    filter: 'organizationId',
    events: 'Events of this organization',
    page: () => RECORD_PAGES.organization,
  },
  {
    label: 'Application',
    filter: 'clientId',
    events: 'Events of this application',
    page: () => RECORD_PAGES.client,
  },
];

/** One audit event: every field, its data as JSON, and links to what it names. */
export function AuditEventPage() {
  const { eventId } = route.useParams();
  const record = useRecord('audit', `/events/${encodeURIComponent(eventId)}`, auditEventSchema);
  const back = <Link to="/audit">← Audit</Link>;
  if (record.data === undefined) {
    return (
      <Page title="Audit event" back={back}>
        <Loading error={record.error} retry={() => void record.refetch()} />
      </Page>
    );
  }
  const event = record.data;
  return (
    <Page title={event.kind} description={<Time iso={event.occurredAt} />} back={back}>
      <Panel title="Event">
        <Facts
          items={[
            ['Kind', <code key="kind">{event.kind}</code>],
            ['Time', <code key="time">{event.occurredAt}</code>],
            ['Actor type', event.actorType ?? <span className="muted">—</span>],
            ...NAMES.map(({ label, filter, events, page }) => {
              const id = event[filter];
              return [
                label,
                <Named key={label} id={id} page={page(event)} filter={filter} events={events} />,
              ] as const;
            }),
            ['IP address', event.ipAddress ?? <span className="muted">—</span>],
            ['Event id', <Id key="id" value={event.id} />],
          ]}
        />
      </Panel>
      <Panel title="Data">
        {Object.keys(event.data).length === 0 ? (
          <p className="muted">This event carries no data of its own.</p>
        ) : (
          <pre className="json" tabIndex={0}>
            {JSON.stringify(event.data, null, 2)}
          </pre>
        )}
      </Panel>
    </Page>
  );
}

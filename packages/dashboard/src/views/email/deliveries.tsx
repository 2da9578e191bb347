import {
  emailDeliveryViewSchema,
  type EmailDeliveryStatus,
  type EmailDeliveryView,
  type EmailTemplateView,
} from '@svc/contract';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useList } from '../../data/queries.js';
import { SelectField } from '../../ui/fields.js';
import { Time } from '../../ui/format.js';
import { EmptyState, Panel } from '../../ui/page.js';
import { DataTable, type TableColumn } from '../../ui/table.js';

const route = getRouteApi('/email');

const STATUSES: readonly { readonly id: EmailDeliveryStatus; readonly label: string }[] = [
  { id: 'sent', label: 'Sent' },
  { id: 'failed', label: 'Failed' },
  { id: 'queued', label: 'Queued' },
  { id: 'outbox', label: 'Outbox (not sent)' },
];

const ANY = { id: 'any', label: 'Any' } as const;

function Status(props: { readonly status: EmailDeliveryStatus }) {
  const label = STATUSES.find((status) => status.id === props.status)?.label ?? props.status;
  const tone = props.status === 'sent' ? ' badge-on' : props.status === 'failed' ? ' badge-danger' : '';
  return <span className={`badge${tone}`}>{label}</span>;
}

const COLUMNS: readonly TableColumn<EmailDeliveryView>[] = [
  { id: 'created', label: 'Time', cell: (delivery) => <Time iso={delivery.createdAt} /> },
  { id: 'to', label: 'To', cell: (delivery) => delivery.to, isRowHeader: true },
  { id: 'template', label: 'Template', cell: (delivery) => <code>{delivery.templateKey}</code> },
  { id: 'subject', label: 'Subject', cell: (delivery) => delivery.subject },
  { id: 'status', label: 'Status', cell: (delivery) => <Status status={delivery.status} /> },
  {
    id: 'detail',
    label: 'Detail',
    cell: (delivery) =>
      delivery.failureDetail ?? delivery.providerMessageId ?? <span className="muted">—</span>,
  },
  { id: 'sent', label: 'Sent', cell: (delivery) => <Time iso={delivery.sentAt} /> },
];

/** The delivery log, newest first, filtered by status and template in the link. */
export function Deliveries(props: { readonly templates: readonly EmailTemplateView[] }) {
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/email' });
  const list = useList('email', '/deliveries', emailDeliveryViewSchema, {
    status: search.status,
    templateKey: search.template,
  });
  const filtered = search.status !== undefined || search.template !== undefined;
  // A filter of the link: choosing "Any" removes it.
  const filter = <V extends string>(name: 'status' | 'template', value: V | undefined) => ({
    name,
    value: value ?? ANY.id,
    onChange: (choice: V | typeof ANY.id) =>
      void navigate({
        search: (prev) => ({ ...prev, [name]: choice === ANY.id ? undefined : choice }),
        replace: true,
      }),
    errorMessage: undefined,
  });
  return (
    <Panel title="Delivery log">
      <div className="filters">
        <SelectField<EmailDeliveryStatus | 'any'>
          label="Status"
          field={filter('status', search.status)}
          choices={[ANY, ...STATUSES]}
        />
        <SelectField<string>
          label="Template"
          field={filter('template', search.template)}
          choices={[
            ANY,
            ...props.templates.map((template) => ({ id: template.key, label: template.description })),
          ]}
        />
      </div>
      <DataTable
        label="Deliveries"
        columns={COLUMNS}
        list={list}
        rowKey={(delivery) => delivery.id}
        empty={
          <EmptyState title={filtered ? 'No delivery matches these filters.' : 'Nothing sent yet.'}>
            {filtered ? 'Choose another status or template.' : 'Send a test message above to check delivery.'}
          </EmptyState>
        }
      />
    </Panel>
  );
}
